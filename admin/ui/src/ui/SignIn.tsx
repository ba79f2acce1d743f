// The sign-in screen: the password only; a wrong password and the rate limit are
// said plainly.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.ts';
import { t } from '../i18n.ts';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!password) return;
    setBusy(true);
    setError(null);
    try {
      await api.login(password);
      setPassword('');
      onSignedIn();
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) setError(t('tooManyAttempts'));
      else if (err instanceof ApiError && err.status === 401) setError(t('wrongPassword'));
      else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <form onSubmit={submit} class="card" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">{t('signInTitle')}</h1>
        <p class="muted">{t('signInLead')}</p>
        <label>
          <span>{t('password')}</span>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            autofocus
            required
            value={password}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'sign-in-error' : undefined}
            onInput={(e) => setPassword((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
        {error && (
          <p id="sign-in-error" class="error-line" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary wide" disabled={busy}>
          {busy ? t('signingIn') : t('signIn')}
        </button>
      </form>
    </main>
  );
}
