// The History section (Appendix B): closed at first and silent until opened; once
// opened it stays open (a device preference). One timeline of commits and local
// versions; a row shows that revision rendered in the main area.
import { useEffect, useState } from 'preact/hooks';
import { tabs, openNoteAt } from '../editor/workspace.ts';
import { closedMark, formatSize, formatTime, t } from '../i18n.ts';
import { prefs, setPref } from '../prefs.ts';
import { useStore } from '../store.ts';
import { NO_SESSION } from '../editor/session.ts';
import { toastError } from '../ui/feedback.ts';
import { showPanelSection, showView } from '../views.ts';
import { commitTitle, loadTimeline, showRevision, shownRevision, timelineStamp, type Timeline, type TimelineRow } from './timeline.ts';

function rowKey(row: TimelineRow): string {
  return row.kind === 'commit' ? `c:${row.revision.sha}` : `v:${row.version.at}`;
}

function Row({ row, path, selected }: { row: TimelineRow; path: string; selected: boolean }) {
  const open = () => {
    showView('editor');
    showRevision(path, row).catch(toastError);
  };
  if (row.kind === 'commit') {
    const r = row.revision;
    return (
      <li>
        <button type="button" class={`tl-row row-commit${selected ? ' selected' : ''}`} aria-pressed={selected} onClick={open} data-kind="commit" data-time={row.time}>
          <span class="tl-mark" aria-hidden="true">●</span>
          <span class="tl-main">
            <span class="tl-title">{commitTitle(r.message)}</span>
            <span class="tl-meta">
              <time dateTime={r.date}>{formatTime(r.date)}</time> · <span class="added">+{r.added}</span>{' '}
              <span class="removed">−{r.removed}</span> · <span class="sha">{r.sha.slice(0, 7)}</span>
            </span>
          </span>
        </button>
      </li>
    );
  }
  const v = row.version;
  return (
    <li>
      <button type="button" class={`tl-row row-version${selected ? ' selected' : ''}`} aria-pressed={selected} onClick={open} data-kind="version" data-time={row.time}>
        <span class="tl-mark" aria-hidden="true">○</span>
        <span class="tl-main">
          <span class="tl-title">
            {t('version')} · {v.reason}
          </span>
          <span class="tl-meta">
            {t('savedAtTime', { time: formatTime(v.savedAt) })} · {t('replaced', { time: formatTime(v.replacedAt) })} · {formatSize(v.size)}
          </span>
        </span>
      </button>
    </li>
  );
}

function Body({ path }: { path: string }) {
  const [timeline, setTimeline] = useState<Timeline | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stamp = useStore(timelineStamp);
  const shown = useStore(shownRevision);
  const session = openNoteAt(path)?.session ?? null;
  const savedNow = useStore(session?.view ?? NO_SESSION).status === 'saved';

  useEffect(() => {
    let live = true;
    // A save adds a version: reload after it settles, not on every keystroke.
    const timer = setTimeout(
      () => {
        loadTimeline(path).then(
          (tl) => live && (setTimeline(tl), setError(null)),
          (err) => live && setError(err instanceof Error ? err.message : String(err)),
        );
      },
      timeline?.path === path ? 400 : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [path, stamp, savedNow]);

  if (error) return <p class="error-line">{error}</p>;
  if (!timeline || timeline.path !== path) return <p class="muted">{t('loading')}</p>;
  const selectedKey = shown && shown.notePath === path ? rowKey(shown.row) : null;
  return (
    <div class="history-body">
      {timeline.repo === false && (
        <div class="notice" data-testid="not-a-repo">
          <p>{t('notARepo')}</p>
          <button type="button" onClick={() => showPanelSection('backup')}>
            {t('turnOnBackup')}
          </button>
        </div>
      )}
      {timeline.repo === null && timeline.historyError && <p class="muted">{t('unavailable', { error: timeline.historyError })}</p>}
      {!timeline.versionsEnabled && (
        <p class="notice" data-testid="versions-off">
          {t('versionsOff')}
        </p>
      )}
      {timeline.rows.length === 0 ? (
        <p class="muted">{t('noRevisions')}</p>
      ) : (
        <ol class="timeline" aria-label={t('history')}>
          {timeline.rows.map((row) => (
            <Row row={row} path={path} selected={rowKey(row) === selectedKey} key={rowKey(row)} />
          ))}
        </ol>
      )}
      {timeline.truncated && <p class="muted">{t('truncated')}</p>}
    </div>
  );
}

export function HistorySection() {
  const { historySectionOpen } = useStore(prefs);
  const { active } = useStore(tabs);
  return (
    <section class="panel-section" id="panel-history" data-section="history">
      <h3>
        <button
          type="button"
          class="section-toggle"
          aria-expanded={historySectionOpen}
          aria-controls="history-content"
          onClick={() => setPref('historySectionOpen', !historySectionOpen)}
        >
          <span aria-hidden="true">{historySectionOpen ? '▾' : closedMark()}</span> {t('history')}
        </button>
      </h3>
      {historySectionOpen && (
        <div id="history-content">
          <p class="muted small">{t('historyLead')}</p>
          {active ? <Body path={active} /> : <p class="muted">{t('historyNoNote')}</p>}
        </div>
      )}
    </section>
  );
}
