// The command palette (Ctrl/Cmd+K): the app's commands, then the vault's notes found by
// name, title or alias (folded like search).
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { foldText } from '../../../../shared/text-fold.ts';
import { isPublished, setPublished } from '../editor/PublishControls.tsx';
import { activeNote, nameOf, openFindInNote, openNote } from '../editor/workspace.ts';
import { isolated, isolatedPath } from '../isolate.ts';
import { t } from '../i18n.ts';
import { snapshotNow, syncNow } from '../panel/sync-model.ts';
import { prefs, setPref } from '../prefs.ts';
import { Store, useStore } from '../store.ts';
import { newNote } from '../tree/actions.ts';
import { entries, notesMeta } from '../tree/model.ts';
import type { NoteMeta, TreeEntry } from '../types.ts';
import { openSearch, showPanelSection, showView } from '../views.ts';
import { toastError } from './feedback.ts';

export const paletteOpen = new Store<boolean>(false);

interface Command {
  id: string;
  label: string;
  run: () => void | Promise<void>;
}

/** Publish or Unpublish, for the note on screen (Ctrl/Cmd+K → Publish). */
function publishCommand(): Command[] {
  const note = activeNote();
  if (!note) return [];
  const published = isPublished(note.editor.getText());
  return [
    {
      id: published ? 'unpublish' : 'publish',
      label: t(published ? 'cmdUnpublish' : 'cmdPublish'),
      run: () => setPublished(note, !published),
    },
    { id: 'find', label: t('cmdFind'), run: () => openFindInNote() },
  ];
}

export function commands(signOut: () => void): Command[] {
  const themes = ['auto', 'light', 'dark'] as const;
  return [
    ...publishCommand(),
    { id: 'new-note', label: t('cmdNewNote'), run: () => newNote('') },
    { id: 'search', label: t('cmdSearch'), run: () => openSearch() },
    { id: 'snapshot', label: t('cmdSnapshot'), run: () => snapshotNow() },
    { id: 'sync', label: t('cmdSync'), run: () => syncNow() },
    { id: 'settings', label: t('cmdSettings'), run: () => showView('settings') },
    { id: 'trash', label: t('cmdTrash'), run: () => showView('trash') },
    { id: 'comments', label: t('cmdComments'), run: () => showView('comments') },
    { id: 'health', label: t('cmdHealth'), run: () => showView('health') },
    { id: 'history', label: t('cmdHistory'), run: () => showPanelSection('history') },
    { id: 'backup', label: t('cmdBackup'), run: () => showPanelSection('backup') },
    { id: 'preview', label: t('cmdPreview'), run: () => showView('preview') },
    {
      id: 'theme',
      label: t('cmdTheme'),
      run: () => setPref('theme', themes[(themes.indexOf(prefs.get().theme) + 1) % themes.length]!),
    },
    { id: 'language', label: t('cmdLanguage'), run: () => setPref('interfaceLanguage', prefs.get().interfaceLanguage === 'ar' ? 'en' : 'ar') },
    { id: 'sign-out', label: t('cmdSignOut'), run: signOut },
  ];
}

/** Notes whose path, title or an alias holds the query; a title or alias match says so. */
function noteCommands(q: string, list: TreeEntry[], meta: Map<string, NoteMeta>): Command[] {
  const found: { cmd: Command; rank: number }[] = [];
  for (const e of list) {
    if (e.kind !== 'note') continue;
    const m = meta.get(e.path);
    const name = foldText(e.path);
    const title = m ? foldText(m.title) : '';
    const alias = m?.aliases.find((a) => foldText(a).includes(q));
    const rank = title.startsWith(q) ? 0 : name.includes(q) ? 1 : title.includes(q) ? 2 : alias ? 3 : -1;
    if (rank < 0) continue;
    // Each name isolated: an Arabic title beside its path would otherwise swap places with it.
    const shown = alias && rank === 3 ? `${isolated(alias)} → ${isolatedPath(e.path)}` : m && m.title !== nameOf(e.path) ? `${isolated(m.title)} · ${isolatedPath(e.path)}` : isolatedPath(e.path);
    found.push({
      rank,
      cmd: {
        id: `open:${e.path}`,
        label: t('cmdOpen', { name: shown }),
        run: () => {
          showView('editor');
          return openNote(e.path).then(() => undefined);
        },
      },
    });
  }
  return found
    .sort((a, b) => a.rank - b.rank || a.cmd.label.localeCompare(b.cmd.label))
    .slice(0, 30)
    .map((f) => f.cmd);
}

export function Palette({ signOut }: { signOut: () => void }) {
  const open = useStore(paletteOpen);
  const notes = useStore(entries);
  const meta = useStore(notesMeta);
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const restoreFocus = useRef<HTMLElement | null>(null);

  // Focus before the next keystroke: a fast typist types right after Ctrl+K.
  useLayoutEffect(() => {
    if (!open) return;
    restoreFocus.current = document.activeElement as HTMLElement | null;
    setQuery('');
    setIndex(0);
    input.current?.focus();
  }, [open]);

  const items = useMemo(() => {
    const q = foldText(query.trim());
    const cmds = commands(signOut).filter((c) => !q || foldText(c.label).includes(q));
    return [...cmds, ...(q ? noteCommands(q, notes, meta) : [])];
  }, [query, notes, meta, open]);

  if (!open) return null;
  const close = (refocus = true) => {
    paletteOpen.set(false);
    if (refocus) restoreFocus.current?.focus?.();
  };
  const run = (cmd: Command | undefined) => {
    if (!cmd) return;
    close(false);
    Promise.resolve(cmd.run()).catch(toastError);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') setIndex((i) => Math.min(items.length - 1, i + 1));
    else if (e.key === 'ArrowUp') setIndex((i) => Math.max(0, i - 1));
    else if (e.key === 'Enter') run(items[index]);
    else if (e.key === 'Escape') close();
    else return;
    e.preventDefault();
  };
  return (
    <div class="backdrop palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div class="palette" role="dialog" aria-modal="true" aria-label={t('palette')}>
        <input
          ref={input}
          class="wide"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={items[index] ? `palette-${index}` : undefined}
          placeholder={t('paletteHint')}
          aria-label={t('paletteHint')}
          value={query}
          onInput={(e) => {
            setQuery((e.currentTarget as HTMLInputElement).value);
            setIndex(0);
          }}
          onKeyDown={onKey}
        />
        <ul id="palette-list" role="listbox" aria-label={t('palette')}>
          {items.length === 0 && <li class="muted pad">{t('noMatches')}</li>}
          {items.map((cmd, i) => (
            <li
              id={`palette-${i}`}
              role="option"
              aria-selected={i === index}
              class={i === index ? 'selected' : ''}
              data-command={cmd.id}
              onMouseDown={(e) => {
                e.preventDefault();
                run(cmd);
              }}
              onMouseEnter={() => setIndex(i)}
            >
              {cmd.label}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
