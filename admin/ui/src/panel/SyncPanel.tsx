// The Backup & sync section (spec 2.9, 2.10, 3.1–3.5): the switch, the remote and
// its credentials, the period, the actions, and the status the server reports.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { formatTime, t, type StringKey } from '../i18n.ts';
import { loadSettings, patchSettings, settingsView } from '../settings/settings-model.ts';
import { useStore } from '../store.ts';
import type { SyncInterval, SyncSettings, SyncStatus } from '../types.ts';
import { toast, toastError } from '../ui/feedback.ts';
import { initRepository, lastAnswer, localRunning, refreshSync, snapshotNow, syncNow, syncView } from './sync-model.ts';

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
      <dd data-field="last">{last ? `${formatTime(last.at)} · ${last.message}` : t('never')}</dd>
      {last && !last.ok && last.error && (
        <>
          <dt>{t('gitError')}</dt>
          <dd class="error-line" data-field="git-error">
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
          {answer?.outcome === 'busy' ? answer.message : t('busy')}
        </dd>
      )}
    </dl>
  );
}

function SyncForm({ sync, disabled }: { sync: SyncSettings & { tokenSet?: boolean }; disabled: boolean }) {
  const [remoteUrl, setRemoteUrl] = useState(sync.remoteUrl ?? '');
  const [branch, setBranch] = useState(sync.branch || 'main');
  const [pullFirst, setPullFirst] = useState(sync.pullFirst);
  const [enabled, setEnabled] = useState(sync.enabled);
  const [interval, setInterval_] = useState<SyncInterval>(sync.intervalMinutes);
  const [username, setUsername] = useState(sync.username ?? '');
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<{ remote?: string; branch?: string; token?: string; other?: string }>({});
  const [saving, setSaving] = useState(false);
  const tokenSet = Boolean(sync.tokenSet ?? (settingsView.get() as { settings?: { tokenSet?: boolean } }).settings?.tokenSet);

  useEffect(() => {
    setRemoteUrl(sync.remoteUrl ?? '');
    setBranch(sync.branch || 'main');
    setPullFirst(sync.pullFirst);
    setUsername(sync.username ?? '');
    setEnabled(sync.enabled);
    setInterval_(sync.intervalMinutes);
  }, [sync.remoteUrl, sync.branch, sync.pullFirst, sync.username, sync.enabled, sync.intervalMinutes]);

  const apply = async (patch: Partial<SyncSettings> & { token?: string | null }, done?: string) => {
    setSaving(true);
    setErrors({});
    try {
      await patchSettings({ sync: patch });
      if (done) toast(done);
      void refreshSync();
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'bad_remote') setErrors({ remote: err.message });
      else if (err instanceof ApiError && err.code === 'bad_branch') setErrors({ branch: err.message });
      else if (err instanceof ApiError && /token|username/.test(err.code)) setErrors({ token: err.message });
      else setErrors({ other: err instanceof Error ? err.message : String(err) });
      return false;
    } finally {
      setSaving(false);
    }
  };

  const save = async (e: Event) => {
    e.preventDefault();
    const patch: Partial<SyncSettings> & { token?: string } = {
      remoteUrl: remoteUrl.trim() === '' ? null : remoteUrl.trim(),
      branch: branch.trim(),
      pullFirst,
    };
    if (username.trim()) patch.username = username.trim();
    if (token) patch.token = token;
    if (await apply(patch, t('syncSaved'))) setToken('');
  };

  return (
    <form class="form" onSubmit={save} aria-disabled={disabled}>
      <label class="switch">
        <input
          type="checkbox"
          role="switch"
          checked={enabled}
          disabled={disabled || saving}
          data-testid="backup-switch"
          onChange={(e) => {
            const on = (e.currentTarget as HTMLInputElement).checked;
            setEnabled(on);
            void apply({ enabled: on }).then((ok) => ok || setEnabled(!on));
          }}
        />
        <span>{t('backupSwitch')}</span>
      </label>
      <label>
        <span>{t('remoteUrl')}</span>
        <input
          type="text"
          inputMode="url"
          spellcheck={false}
          autoComplete="off"
          value={remoteUrl}
          disabled={disabled}
          aria-invalid={Boolean(errors.remote)}
          aria-describedby="remote-hint remote-error"
          name="remoteUrl"
          onInput={(e) => setRemoteUrl((e.currentTarget as HTMLInputElement).value)}
        />
        <small id="remote-hint" class="muted">
          {t('remoteHint')}
        </small>
        {errors.remote && (
          <small id="remote-error" class="error-line" role="alert" data-testid="remote-error">
            {errors.remote}
          </small>
        )}
      </label>
      <label>
        <span>{t('interval')}</span>
        <select
          value={String(interval)}
          disabled={disabled}
          name="intervalMinutes"
          onChange={(e) => {
            const minutes = Number((e.currentTarget as HTMLSelectElement).value) as SyncInterval;
            const before = interval;
            setInterval_(minutes);
            void apply({ intervalMinutes: minutes }).then((ok) => ok || setInterval_(before));
          }}
        >
          {INTERVALS.map(([minutes, key]) => (
            <option value={String(minutes)}>{t(key)}</option>
          ))}
        </select>
      </label>
      <details>
        <summary>{t('advanced')}</summary>
        <label>
          <span>{t('branch')}</span>
          <input value={branch} disabled={disabled} name="branch" aria-invalid={Boolean(errors.branch)} onInput={(e) => setBranch((e.currentTarget as HTMLInputElement).value)} />
          {errors.branch && (
            <small class="error-line" role="alert">
              {errors.branch}
            </small>
          )}
        </label>
        <label class="check">
          <input type="checkbox" checked={pullFirst} disabled={disabled} onChange={(e) => setPullFirst((e.currentTarget as HTMLInputElement).checked)} />
          <span>{t('pullFirst')}</span>
        </label>
      </details>
      <fieldset>
        <legend>{t('token')}</legend>
        <label>
          <span>{t('username')}</span>
          <input value={username} disabled={disabled} name="username" autoComplete="username" onInput={(e) => setUsername((e.currentTarget as HTMLInputElement).value)} />
        </label>
        <label>
          <span>{t('token')}</span>
          <input
            type="password"
            value={token}
            disabled={disabled}
            name="token"
            autoComplete="new-password"
            placeholder={tokenSet ? t('tokenSet') : ''}
            onInput={(e) => setToken((e.currentTarget as HTMLInputElement).value)}
          />
          <small class="muted">{t('tokenHint')}</small>
          {errors.token && (
            <small class="error-line" role="alert">
              {errors.token}
            </small>
          )}
        </label>
        {tokenSet && (
          <p class="token-set">
            <span data-testid="token-set">✓ {t('tokenSet')}</span>{' '}
            <button type="button" disabled={disabled || saving} onClick={() => void apply({ token: null }, t('tokenCleared'))}>
              {t('clearToken')}
            </button>
          </p>
        )}
      </fieldset>
      <details>
        <summary>SSH</summary>
        <p class="muted small">{t('sshHelp')}</p>
      </details>
      {errors.other && (
        <p class="error-line" role="alert">
          {errors.other}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={disabled || saving}>
          {t('saveSync')}
        </button>
      </div>
    </form>
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
      {view.kind === 'error' && <p class="muted">{t('unavailable', { error: view.message })}</p>}
      {settings.kind === 'ok' ? (
        <SyncForm sync={settings.settings.sync} disabled={false} />
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
    </div>
  );
}
