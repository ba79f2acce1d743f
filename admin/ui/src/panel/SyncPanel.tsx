// The Backup & sync section (spec 2.9, 2.10, 3.1–3.5): the switch, the remote and
// its credentials, the period, the actions, and the status the server reports.
import { useEffect, useState } from 'preact/hooks';
import { formatTime, t, type StringKey } from '../i18n.ts';
import { refusalText, syncText } from '../refusal-text.ts';
import { CheckField, SaveBar, SelectField, TextField } from '../settings/fields.tsx';
import type { FieldKey } from '../settings/form-model.ts';
import { loadSettings, patchSettings, settingsView } from '../settings/settings-model.ts';
import { useStore } from '../store.ts';
import type { Settings, SyncInterval, SyncStatus } from '../types.ts';
import { toast, toastError } from '../ui/feedback.ts';
import { VaultRequestNotice } from './VaultRequest.tsx';
import { initRepository, lastAnswer, localRunning, refreshSync, snapshotNow, syncNow, syncView } from './sync-model.ts';
import { Sentence } from '../ui/Sentence.tsx';

export const INTERVALS: [SyncInterval, StringKey][] = [
  [0, 'manual'],
  [5, 'every5'],
  [15, 'every15'],
  [30, 'every30'],
  [60, 'hourly'],
  [360, 'every6h'],
  [1440, 'daily'],
];

function StatusLines({ status }: { status: SyncStatus }) {
  const answer = useStore(lastAnswer);
  const last = status.last;
  return (
    <dl class="status-list" data-testid="sync-status">
      {status.operation && (
        <dd class="error-line wide" role="alert" data-field="git-operation">
          {refusalText(status.operation.code, status.operation, status.operation.message)}
        </dd>
      )}
      <dt>{t('statusBranch')}</dt>
      <dd data-field="branch">{status.branch ?? '—'}</dd>
      <dt>{t('remoteHost')}</dt>
      <dd data-field="remote-host">{status.remoteHost ?? '—'}</dd>
      <dt>{t('remoteState')}</dt>
      <dd data-field="ahead-behind">
        {status.ahead === null || status.behind === null
          ? t('nothingReached')
          : t('aheadBehind', { ahead: status.ahead, behind: status.behind })}
      </dd>
      <dt>{t('uncommitted')}</dt>
      <dd data-field="uncommitted">{status.uncommitted}</dd>
      <dt>{t('lastResult')}</dt>
      <dd class="said" data-field="last">{last ? `${formatTime(last.at)} · ${syncText(last)}` : t('never')}</dd>
      {last && !last.ok && last.error && (
        <>
          <dt>{t('gitError')}</dt>
          <dd class="error-line said" data-field="git-error">
            {last.error}
          </dd>
        </>
      )}
      {answer?.outcome === 'diverged' && (
        <dd class="error-line wide" data-field="diverged">
          {t('diverged')}
        </dd>
      )}
      {(status.state === 'busy' || answer?.outcome === 'busy') && (
        <dd class="notice wide" data-field="busy">
          {answer?.outcome === 'busy' ? syncText(answer) : t('busy')}
        </dd>
      )}
    </dl>
  );
}

/** Backup & sync's fields: the sync group of the one settings form model. */
export const inSyncForm = (key: FieldKey) => key.startsWith('sync.');

function SyncForm({ s }: { s: Settings }) {
  const [clearing, setClearing] = useState(false);
  const clearToken = async () => {
    setClearing(true);
    try {
      await patchSettings({ sync: { token: null } });
      toast(t('tokenCleared'));
    } catch (err) {
      toastError(err);
    } finally {
      setClearing(false);
    }
  };
  return (
    <div class="form" data-testid="sync-form">
      <CheckField s={s} field="sync.enabled" label={t('backupSwitch')} role="switch" testId="backup-switch" />
      <TextField s={s} field="sync.remoteUrl" label={t('remoteUrl')} hint={t('remoteHint')} inputMode="url" errorTestId="remote-error" />
      <SelectField s={s} field="sync.intervalMinutes" label={t('interval')} fallback={0 as SyncInterval} options={INTERVALS.map(([m, key]) => [m, t(key)])} />
      <details>
        <summary>{t('advanced')}</summary>
        <TextField s={s} field="sync.branch" label={t('branch')} />
        <CheckField s={s} field="sync.pullFirst" label={t('pullFirst')} />
      </details>
      <fieldset>
        <legend>{t('token')}</legend>
        <TextField s={s} field="sync.username" label={t('username')} />
        <TextField s={s} field="sync.token" type="password" label={t('token')} hint={t('tokenHint')} placeholder={s.tokenSet ? t('tokenSet') : ''} />
        {s.tokenSet && (
          <p class="token-set">
            <span data-testid="token-set">✓ {t('tokenSet')}</span>{' '}
            <button type="button" disabled={clearing} onClick={() => void clearToken()}>
              {t('clearToken')}
            </button>
          </p>
        )}
      </fieldset>
      <details>
        <summary>SSH</summary>
        <p class="muted small">{t('sshHelp')}</p>
      </details>
      <SaveBar inForm={inSyncForm} testId="sync-save" onSaved={() => void refreshSync()} />
    </div>
  );
}

export function SyncPanel() {
  const view = useStore(syncView);
  const settings = useStore(settingsView);
  const running = useStore(localRunning);
  useEffect(() => {
    void loadSettings();
    void refreshSync().catch(() => undefined);
  }, []);
  if (view.kind === 'needs-password') {
    return (
      <p class="notice" data-testid="needs-password">
        {t('needsPassword')}
      </p>
    );
  }
  const status = view.kind === 'ok' ? view.status : null;
  const busy = running || status?.state === 'running';
  return (
    <div class="sync-panel" data-testid="sync-panel">
      <p class="muted small">{t('backupLead')}</p>
      <VaultRequestNotice />
      {view.kind === 'error' && <p class="muted">{t('unavailable', { error: view.message })}</p>}
      {settings.kind === 'ok' ? (
        <SyncForm s={settings.settings} />
      ) : settings.kind === 'error' ? (
        <p class="muted">{t('unavailable', { error: settings.message })}</p>
      ) : (
        <p class="muted">{t('loading')}</p>
      )}
      <div class="actions left">
        {status && !status.repo && (
          <button type="button" disabled={busy} onClick={() => void initRepository()}>
            {t('initRepo')}
          </button>
        )}
        <button type="button" class="primary" disabled={busy || !status?.repo} onClick={() => void syncNow()}>
          {t('syncNow')}
        </button>
        <button type="button" disabled={busy || !status?.repo} onClick={() => void snapshotNow()}>
          {t('snapshotNow')}
        </button>
      </div>
      {status && !status.repo && <p class="muted">{t('notRepoYet')}</p>}
      {status && status.repo && <StatusLines status={status} />}
      {status?.nestedRepositories && status.nestedRepositories.length > 0 && (
        <ul class="notice nested-repositories" data-testid="nested-repositories">
          {status.nestedRepositories.map((p) => (
            <li key={p}>
              <Sentence text={t('nestedRepository', { path: p })} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
