// The 'What travels' report (Appendix C): one glyph per item (✓ the vault holds it,
// ⚠ this machine holds something the vault does not yet, – nothing to carry), the
// last pass, the files reconciled, a red line per file left behind, Re-sync now.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { formatTime, t } from '../i18n.ts';
import type { TravelReport } from '../types.ts';
import { toastError } from '../ui/feedback.ts';

const GLYPH_TITLE = { vault: 'glyphHeld', local: 'glyphPending', none: 'glyphNothing' } as const;
const GLYPH = { vault: '✓', local: '⚠', none: '–' } as const;

export function TravelReportView() {
  const [report, setReport] = useState<TravelReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.travel().then(setReport, (err: Error) => setError(err.message));
  }, []);
  const resync = async () => {
    setBusy(true);
    try {
      setReport(await api.travelNow());
      setError(null);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  const problems = report ? (report.problems ?? report.lastPass?.problems ?? []) : [];
  return (
    <section class="settings-group" aria-labelledby="group-travel" data-testid="travel-report">
      <h2 id="group-travel">{t('whatTravels')}</h2>
      {error && <p class="muted">{t('unavailable', { error })}</p>}
      {report && (
        <>
          <ul class="travel-items">
            {report.items.map((item) => (
              <li data-item={item.id} data-state={item.state}>
                <span class={`glyph glyph-${item.state}`} title={t(GLYPH_TITLE[item.state])} aria-label={t(GLYPH_TITLE[item.state])}>
                  {item.glyph || GLYPH[item.state]}
                </span>{' '}
                {item.label}
                {item.count !== undefined && <span class="muted"> ({item.count})</span>}
              </li>
            ))}
          </ul>
          <dl class="status-list">
            <dt>{t('lastPass')}</dt>
            <dd data-field="last-pass">{report.lastPass ? formatTime(report.lastPass.at) : t('never')}</dd>
            <dt>{t('reconciled')}</dt>
            <dd data-field="reconciled">{report.reconciled ?? report.lastPass?.reconciled ?? 0}</dd>
          </dl>
          {problems.map((p) => (
            <p class="error-line" data-file={p.file}>
              {t('leftBehind', { file: p.file, reason: p.reason })}
            </p>
          ))}
        </>
      )}
      <div class="actions left">
        <button type="button" disabled={busy} onClick={resync}>
          {t('resyncNow')}
        </button>
      </div>
    </section>
  );
}
