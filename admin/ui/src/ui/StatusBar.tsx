// The status bar: connection, the open note's save state, and the sync indicator
// of spec 3.1 (only while backup is on).
import { useEffect, useState } from 'preact/hooks';
import { SaveState } from '../editor/EditorPane.tsx';
import { frontmatterEnd } from '../editor/direction.ts';
import { activeNote, tabs, type OpenNote } from '../editor/workspace.ts';
import { t } from '../i18n.ts';
import { connected } from '../live.ts';
import { localRunning, syncView } from '../panel/sync-model.ts';
import { VaultRequestNotice } from '../panel/VaultRequest.tsx';
import { useStore } from '../store.ts';
import type { SyncState } from '../types.ts';
import { showPanelSection, showView } from '../views.ts';
import { pendingCount } from '../comments/model.ts';
import { siteWarnings } from '../health/model.ts';

export function SyncIndicator() {
  const view = useStore(syncView);
  const running = useStore(localRunning);
  if (view.kind !== 'ok' || !view.status.enabled) return null;
  const status = view.status;
  // A pass this window started is gold at once, before the next status poll.
  const state: SyncState = running ? 'running' : status.state;
  const label =
    state === 'running'
      ? t('syncRunning')
      : state === 'failed'
        ? t('syncFailed')
        : state === 'busy'
          ? t('syncBusy')
          : state === 'dirty'
            ? t('syncDirty', { count: status.uncommitted })
            : t('syncClean');
  return (
    <button
      type="button"
      class={`sync-indicator state-${state}`}
      data-state={state}
      data-testid="sync-indicator"
      title={label}
      aria-label={label}
      onClick={() => showPanelSection('backup')}
    >
      <span aria-hidden="true">⎇</span>
      {state === 'dirty' && <span class="count">{status.uncommitted}</span>}
      {state === 'busy' && <span aria-hidden="true">…</span>}
    </button>
  );
}

type CountWords = (body: string) => number;
/** The article's own counter (shared/note/excerpt.ts) needs the Markdown parser: loaded after the first screen. */
let counter: CountWords | null = null;
const loadingCounter = () => import('../../../../shared/note/excerpt.ts').then((m) => (counter = m.countWords));

/** Words of the note's body, counted as its article counts them. */
function WordCount({ note }: { note: OpenNote }) {
  useStore(note.edits);
  const [ready, setReady] = useState(counter !== null);
  useEffect(() => {
    if (!ready) void loadingCounter().then(() => setReady(true));
  }, []);
  if (!ready || !counter) return null;
  const doc = note.editor.view.state.doc;
  const fm = frontmatterEnd(doc);
  const body = fm > 0 && fm < doc.lines ? doc.sliceString(doc.line(fm + 1).from) : fm > 0 ? '' : doc.toString();
  const words = counter(body);
  return (
    <span class="word-count" data-testid="word-count">
      {t('wordCount', { count: words })}
    </span>
  );
}

/** CONTRACT §8: how many comments and mentions wait for moderation; opens the Comments view. */
export function CommentsBadge() {
  const count = useStore(pendingCount);
  if (!count) return null;
  const label = t('pendingBadge', { count });
  return (
    <button type="button" class="comments-badge" data-testid="comments-badge" title={label} aria-label={label} onClick={() => showView('comments')}>
      <svg aria-hidden="true" width="14" height="14" viewBox="0 0 16 16" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round">
        <path d="M2 3h12v8H7l-3 3v-3H2z" />
      </svg>
      <span class="count">{count}</span>
    </button>
  );
}

/** CONTRACT §13: how many problems the newest build found; opens Site health. */
export function HealthBadge() {
  const list = useStore(siteWarnings);
  if (!list?.total) return null;
  const label = t('healthBadge', { count: list.total });
  return (
    <button type="button" class="health-badge" data-testid="health-badge" title={label} aria-label={label} onClick={() => showView('health')}>
      <span aria-hidden="true">⚠</span>
      <span class="count">{list.total}</span>
    </button>
  );
}

export function StatusBar() {
  useStore(tabs);
  const online = useStore(connected);
  const note = activeNote();
  return (
    <footer class="status-bar">
      {!online && <span class="offline">{t('offline')}</span>}
      {note && <SaveState session={note.session} />}
      {note && <WordCount note={note} key={note.path} />}
      <span class="grow" />
      <VaultRequestNotice compact />
      <HealthBadge />
      <CommentsBadge />
      <SyncIndicator />
    </footer>
  );
}
