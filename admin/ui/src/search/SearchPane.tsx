// Vault search in the left pane, as Obsidian has it: Ctrl/Cmd+Shift+F, full
// text across notes (titles, text, tags; case, accents and Arabic forms folded), each
// result with its matching line; Enter (or a click) opens the note at the match.
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { openNote } from '../editor/workspace.ts';
import { t } from '../i18n.ts';
import { useStore } from '../store.ts';
import type { SearchResult } from '../types.ts';
import { toastError } from '../ui/feedback.ts';
import { leftPane, showView } from '../views.ts';
import { PaneSwitch } from './PaneSwitch.tsx';
import { searchState, select, setQuery } from './search-model.ts';
import { VaultPath } from '../ui/VaultPath.tsx';

export function openResult(result: SearchResult): void {
  showView('editor');
  openNote(result.path, { cursor: { line: result.line, column: result.column } }).catch(toastError);
}

/** The matching line with the match marked. */
function Snippet({ r }: { r: SearchResult }) {
  if (!r.text) return null;
  const end = r.textColumn + r.length;
  return (
    <span class="search-line" dir="auto">
      {r.text.slice(0, r.textColumn)}
      <mark>{r.text.slice(r.textColumn, end)}</mark>
      {r.text.slice(end)}
    </span>
  );
}

export function SearchPane() {
  const s = useStore(searchState);
  const pane = useStore(leftPane);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLOListElement>(null);

  // Before paint, so the first keystroke after Ctrl/Cmd+Shift+F lands in the box.
  useLayoutEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [pane.focusAt]);

  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [s.selected]);

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') select(s.selected + 1);
    else if (e.key === 'ArrowUp') select(s.selected - 1);
    else if (e.key === 'Enter' && s.results[s.selected]) openResult(s.results[s.selected]!);
    else return;
    e.preventDefault();
  };

  return (
    <section class="tree search-pane" aria-label={t('searchVault')} data-testid="search-pane">
      <PaneSwitch />
      <div class="search-box">
        <input
          ref={input}
          type="search"
          class="wide"
          role="combobox"
          aria-expanded={s.results.length > 0}
          aria-controls="search-results"
          aria-activedescendant={s.results.length ? `search-result-${s.selected}` : undefined}
          aria-label={t('searchVault')}
          placeholder={t('searchHint')}
          value={s.query}
          onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)}
          onKeyDown={onKey}
        />
        <small class="muted" role="status" data-testid="search-count">
          {s.query.trim() === '' ? '' : s.busy ? t('searching') : s.error ? s.error : t('searchCount', { count: s.total })}
        </small>
      </div>
      <ol id="search-results" class="search-results" role="listbox" aria-label={t('searchVault')} ref={list}>
        {s.results.map((r, i) => (
          <li
            id={`search-result-${i}`}
            role="option"
            aria-selected={i === s.selected}
            class={i === s.selected ? 'selected' : ''}
            data-path={r.path}
            data-line={r.line}
            onMouseDown={(e) => {
              e.preventDefault();
              select(i);
              openResult(r);
            }}
          >
            <span class="search-title" dir="auto">
              {r.title}
            </span>
            <VaultPath class="search-path muted" path={r.path} />
            <Snippet r={r} />
          </li>
        ))}
      </ol>
    </section>
  );
}
