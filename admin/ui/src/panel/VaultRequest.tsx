// CONTRACT §14: the vault's settings ask for a backup target this server does not use
// until the admin answers. Shown in the status bar and at the top of Backup & sync;
// only Allow applies it.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { t } from '../i18n.ts';
import { useStore } from '../store.ts';
import type { VaultRequest } from '../types.ts';
import { loadSettings } from '../settings/settings-model.ts';
import { toast, toastError } from '../ui/feedback.ts';
import { refreshSync, syncView } from './sync-model.ts';

export function vaultRequestSentence(request: VaultRequest): string {
  const asks = request.remoteHost ? t('vaultAsksBackup', { host: request.remoteHost }) : t('vaultAsksBackupOn');
  return request.branch === 'main' ? asks : `${asks} ${t('vaultAsksBranch', { branch: request.branch })}`;
}

async function answer(action: 'allow' | 'ignore', request: VaultRequest): Promise<void> {
  try {
    await api.syncVaultRequest(action);
    toast(action === 'allow' ? t('vaultRequestAllowed', { host: request.remoteHost ?? '—' }) : t('vaultRequestIgnored'));
  } catch (err) {
    toastError(err);
  }
  // Allow changed the settings in force: the form's remote, branch and switch show them now.
  await Promise.all([refreshSync().catch(() => undefined), loadSettings()]);
}

/** The sentence with Allow and Ignore; `compact` for the status bar. */
export function VaultRequestNotice({ compact = false }: { compact?: boolean }) {
  const view = useStore(syncView);
  const [busy, setBusy] = useState(false);
  if (view.kind !== 'ok' || !view.status.vaultRequest) return null;
  const request = view.status.vaultRequest;
  const act = (action: 'allow' | 'ignore') => {
    setBusy(true);
    void answer(action, request).finally(() => setBusy(false));
  };
  const sentence = vaultRequestSentence(request);
  return (
    <div class={compact ? 'vault-request compact' : 'vault-request notice'} role="status" data-testid={compact ? 'vault-request-bar' : 'vault-request'}>
      <span class="vault-request-text" title={sentence}>
        {sentence}
      </span>
      {!compact && <span class="muted small">{t('vaultRequestLead')}</span>}
      <span class="vault-request-actions">
        <button type="button" class={compact ? undefined : 'primary'} disabled={busy} onClick={() => act('allow')} data-testid={compact ? 'vault-allow-bar' : 'vault-allow'}>
          {t('allow')}
        </button>
        <button type="button" disabled={busy} onClick={() => act('ignore')} data-testid={compact ? 'vault-ignore-bar' : 'vault-ignore'}>
          {t('ignore')}
        </button>
      </span>
    </div>
  );
}
