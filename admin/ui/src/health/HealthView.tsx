// Site health (CONTRACT §13): every problem the newest build found, grouped by note,
// each with the fixes there are.
import { useEffect } from 'preact/hooks';
import { nameOf } from '../editor/workspace.ts';
import { t } from '../i18n.ts';
import { useStore } from '../store.ts';
import { toastError } from '../ui/feedback.ts';
import { byNote, refreshWarnings, siteWarnings } from './model.ts';
import { WarningItem } from './WarningItem.tsx';
import { VaultPath } from '../ui/VaultPath.tsx';

export function HealthView() {
  const list = useStore(siteWarnings);
  useEffect(() => {
    void refreshWarnings().catch(toastError);
  }, []);
  const groups = byNote(list);
  return (
    <section class="page health-view" aria-labelledby="health-title" data-testid="health-view">
      <div class="page-head">
        <h1 id="health-title">{t('siteHealth')}</h1>
      </div>
      <p class="muted">{t('healthLead')}</p>
      {!list ? (
        <p class="muted">{t('loading')}</p>
      ) : list.total === 0 ? (
        <p class="health-none" data-testid="health-none">
          {t('healthNone')}
        </p>
      ) : (
        <>
          <p class="health-summary">
            {groups.length === 1 ? t('problemCount', { count: list.total }) : t('healthCount', { problems: t('problemCount', { count: list.total }), notes: t('inNotes', { count: groups.length }) })}
            {list.warnings.length < list.total && <> {t('healthMore', { shown: list.warnings.length, total: list.total })}</>}
          </p>
          {groups.map(([path, warnings]) => (
            <section class="health-note" data-path={path} key={path}>
              <h2>
                <span dir="auto">{nameOf(path)}</span> <small class="muted"><VaultPath path={path} /></small>
              </h2>
              <ul class="health-list">
                {warnings.map((w) => (
                  <WarningItem warning={w} />
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </section>
  );
}
