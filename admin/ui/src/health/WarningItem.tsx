// One warning with its fixes: publish the note it links to, open the note at the link's
// line, open the other note. Shared by the Site health view and a note's own list.
import { useState } from 'preact/hooks';
import { nameOf } from '../editor/workspace.ts';
import { t, type StringKey } from '../i18n.ts';
import type { HealthWarning } from '../types.ts';
import { toast, toastError } from '../ui/feedback.ts';
import { Sentence } from '../ui/Sentence.tsx';
import { showView } from '../views.ts';
import { openNote } from '../editor/workspace.ts';
import { hasLine, openAtWarning, publishFix, publishNote } from './model.ts';
import { warningSentence } from './warning-text.ts';

export function kindLabel(kind: string): string {
  const key = `kind_${kind}` as StringKey;
  const label = t(key);
  return label === key ? kind : label;
}

export function WarningItem({ warning, inEditor = false }: { warning: HealthWarning; inEditor?: boolean }) {
  const [busy, setBusy] = useState(false);
  const toPublish = publishFix(warning);
  const run = (work: () => Promise<unknown>) => async () => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  const isNote = warning.kind !== 'nested_repository';
  // A link into the note's own heading names the note itself: no other note to open.
  const other = warning.target && warning.target !== warning.path && /\.md$/i.test(warning.target) && !toPublish ? warning.target : null;
  return (
    <li class="health-item" data-kind={warning.kind} data-target={warning.target}>
      <span class="health-text">
        <strong class="health-kind">{kindLabel(warning.kind)}</strong>
        <span class="health-message">
          <Sentence text={warningSentence(warning)} />
        </span>
        {warning.detail && (
          <small class="health-detail muted" dir="ltr">
            {warning.detail}
          </small>
        )}
      </span>
      <span class="health-fixes">
        {toPublish && (
          <button
            type="button"
            class="primary"
            data-testid="publish-linked"
            disabled={busy}
            onClick={run(async () => {
              await publishNote(toPublish);
              toast(t('healthFixed', { name: nameOf(toPublish) }));
            })}
          >
            {t('publishLinked', { name: nameOf(toPublish) })}
          </button>
        )}
        {isNote && (hasLine(warning) || !inEditor) && (
          <button type="button" data-testid="open-at-line" disabled={busy} onClick={run(() => openAtWarning(warning))}>
            {hasLine(warning) ? t('openAtLine') : t('openNote')}
          </button>
        )}
        {other && (
          <button
            type="button"
            data-testid="open-other"
            disabled={busy}
            onClick={run(async () => {
              showView('editor');
              await openNote(other, { cursor: 0 });
            })}
          >
            {t('openOther', { name: nameOf(other) })}
          </button>
        )}
      </span>
    </li>
  );
}
