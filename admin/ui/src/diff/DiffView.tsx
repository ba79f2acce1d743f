// Two texts side by side in one column: lines added and removed, as History
// shows a revision against the current text and the conflict strip shows the disk's
// text against this window's. jsdiff is loaded only when a diff is first drawn.
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.ts';

interface Part {
  added?: boolean;
  removed?: boolean;
  value: string;
}

/** Unchanged runs longer than this fold to their first and last lines. */
const CONTEXT = 3;

function linesOf(part: Part): string[] {
  const lines = part.value.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function DiffView({ before, after, label, testId }: { before: string; after: string; label: string; testId?: string }) {
  const [parts, setParts] = useState<Part[] | null>(null);
  useEffect(() => {
    let live = true;
    void import('diff').then(({ diffLines }) => live && setParts(diffLines(before, after)));
    return () => {
      live = false;
    };
  }, [before, after]);
  if (!parts) return <p class="muted">{t('loading')}</p>;
  const added = parts.filter((p) => p.added).reduce((n, p) => n + linesOf(p).length, 0);
  const removed = parts.filter((p) => p.removed).reduce((n, p) => n + linesOf(p).length, 0);
  if (added === 0 && removed === 0) return <p class="muted" data-testid={testId}>{t('sameText')}</p>;
  const rows: preact.JSX.Element[] = [];
  parts.forEach((part, i) => {
    const lines = linesOf(part);
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    const mark = part.added ? '+' : part.removed ? '−' : ' ';
    let shown = lines.map((line, j) => ({ line, j }));
    if (kind === 'same' && lines.length > CONTEXT * 2 + 1) {
      const head = i === 0 ? [] : shown.slice(0, CONTEXT);
      const tail = i === parts.length - 1 ? [] : shown.slice(-CONTEXT);
      rows.push(...head.map(({ line, j }) => <DiffLine key={`${i}-${j}`} kind={kind} mark={mark} line={line} />));
      rows.push(
        <div class="diff-line diff-fold" key={`${i}-fold`} aria-hidden="true">
          ⋯
        </div>,
      );
      shown = tail;
    }
    rows.push(...shown.map(({ line, j }) => <DiffLine key={`${i}-${j}`} kind={kind} mark={mark} line={line} />));
  });
  return (
    <figure class="diff" aria-label={label} data-testid={testId}>
      <figcaption class="muted small">
        {label} · <span class="added">+{added}</span> <span class="removed">−{removed}</span>
      </figcaption>
      <div class="diff-lines">{rows}</div>
    </figure>
  );
}

function DiffLine({ kind, mark, line }: { kind: string; mark: string; line: string }) {
  return (
    <div class={`diff-line diff-${kind}`} data-kind={kind} dir="auto">
      <span class="diff-mark" aria-hidden="true">
        {mark}
      </span>
      {kind !== 'same' && <span class="visually-hidden">{kind === 'added' ? '+' : '−'}</span>}
      <span class="diff-text">{line || ' '}</span>
    </div>
  );
}
