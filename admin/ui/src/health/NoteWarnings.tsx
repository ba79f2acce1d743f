// A note's own warnings, under its bar in the editor: what readers of its page will miss.
import { t } from '../i18n.ts';
import { useStore } from '../store.ts';
import { siteWarnings, warningsOf } from './model.ts';
import { WarningItem } from './WarningItem.tsx';

/** Past this many the list starts folded: the text stays the editor's main thing. */
const OPEN_UP_TO = 3;

export function NoteWarnings({ path }: { path: string }) {
  const warnings = warningsOf(useStore(siteWarnings), path);
  if (warnings.length === 0) return null;
  const count = warnings.reduce((n, w) => n + (w.more ?? 1), 0);
  return (
    <details class="note-warnings" data-testid="note-warnings" open={warnings.length <= OPEN_UP_TO} key={path}>
      <summary>{t('noteHealth', { count })}</summary>
      <ul class="health-list">
        {warnings.map((w) => (
          <WarningItem warning={w} inEditor />
        ))}
      </ul>
    </details>
  );
}
