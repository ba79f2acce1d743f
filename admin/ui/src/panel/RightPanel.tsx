// The right-hand panel: Outline and Backlinks of the open note, then History
// and Backup & sync, each a section that asks the server nothing until it is opened.
// With no note open, the note's sections are away and one line says where they come from.
import { useEffect } from 'preact/hooks';
import { closedMark, t } from '../i18n.ts';
import { Store, useStore } from '../store.ts';
import { narrow, panelSection, setPane } from '../views.ts';
import { tabs } from '../editor/workspace.ts';
import { BacklinksSection } from './Backlinks.tsx';
import { CommentsSection } from '../comments/CommentsSection.tsx';
import { HistorySection } from './History.tsx';
import { OutlineSection } from './Outline.tsx';
import { drafts } from '../settings/form-model.ts';
import { inSyncForm, SyncPanel } from './SyncPanel.tsx';

/** Whether Backup & sync is unfolded: kept while the panel is away (it leaves with the editor), for this window. */
const backupOpen = new Store(false);

function BackupSection() {
  const open = useStore(backupOpen);
  const setOpen = (next: boolean) => backupOpen.set(next);
  const request = useStore(panelSection);
  const unsaved = Object.keys(useStore(drafts)).some(inSyncForm);
  useEffect(() => {
    if (request?.id !== 'backup') return;
    setOpen(true);
    requestAnimationFrame(() => document.getElementById('panel-backup')?.scrollIntoView({ block: 'start' }));
  }, [request]);
  return (
    <section class="panel-section" id="panel-backup" data-section="backup">
      <h3>
        <button type="button" class="section-toggle" aria-expanded={open} aria-controls="backup-content" onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? '▾' : closedMark()}</span> {t('backup')}
          {unsaved && (
            <span class="unsaved-dot" data-testid="backup-unsaved" title={t('unsavedField')}>
              {' '}
              • {t('unsavedField')}
            </span>
          )}
        </button>
      </h3>
      {open && (
        <div id="backup-content">
          <SyncPanel />
        </div>
      )}
    </section>
  );
}

export function RightPanel() {
  const request = useStore(panelSection);
  const isNarrow = useStore(narrow);
  const { active } = useStore(tabs);
  useEffect(() => {
    if (request?.id === 'history') {
      requestAnimationFrame(() => document.getElementById('panel-history')?.scrollIntoView({ block: 'start' }));
    }
  }, [request]);
  return (
    <aside class="right-panel" aria-label={t('panel')}>
      {isNarrow && (
        <div class="pane-head">
          <h2>{t('panel')}</h2>
          <button type="button" class="icon" aria-label={t('close')} onClick={() => setPane('panelOpen', false)}>
            ×
          </button>
        </div>
      )}
      {active ? (
        <>
          <OutlineSection />
          <BacklinksSection />
          <CommentsSection />
          <HistorySection />
        </>
      ) : (
        <p class="muted panel-no-note" data-testid="panel-no-note">
          {t('panelNoNote')}
        </p>
      )}
      <BackupSection />
    </aside>
  );
}
