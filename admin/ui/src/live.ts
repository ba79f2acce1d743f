// The live link to the server: the `changed` and `settings` event stream and the window's
// visibility. The stream replays nothing missed (spec 6), so a reconnect or a
// hidden window becoming visible re-checks every open note.
import { api } from './api.ts';
import { Store } from './store.ts';

export interface LiveHandlers {
  /** A note changed on disk, whoever changed it. */
  onChanged(path: string): void;
  /** This server's settings changed (a save, or another server's change the mirror took in). */
  onSettings(): void;
  /** The stream came back, or the window became visible again. */
  onWake(): void;
  /** The window is being hidden: save what is pending. */
  onHide(): void;
  /** The session is gone. */
  onSignedOut(): void;
}

export const connected = new Store<boolean>(true);

const RECONNECT_MS = 2000;

export function startLive(handlers: LiveHandlers): () => void {
  let source: EventSource | null = null;
  let lostOnce = false;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | null = null;

  const connect = () => {
    if (stopped) return;
    source = new EventSource('/api/events');
    source.addEventListener('changed', (event) => {
      try {
        const { path } = JSON.parse((event as MessageEvent<string>).data) as { path: string };
        if (typeof path === 'string') handlers.onChanged(path);
      } catch {
        /* a malformed event is ignored */
      }
    });
    source.addEventListener('settings', () => handlers.onSettings());
    source.onopen = () => {
      connected.set(true);
      if (lostOnce) handlers.onWake();
    };
    source.onerror = () => {
      lostOnce = true;
      connected.set(false);
      if (source?.readyState !== EventSource.CLOSED) return; // the browser retries by itself
      source = null;
      // A refused stream is either a dead session or a server that is down.
      void api
        .me()
        .then((me) => {
          if (!me.admin) handlers.onSignedOut();
          else retry = setTimeout(connect, RECONNECT_MS);
        })
        .catch(() => {
          retry = setTimeout(connect, RECONNECT_MS);
        });
    };
  };

  const onVisibility = () => {
    if (document.visibilityState === 'visible') handlers.onWake();
    else handlers.onHide();
  };
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', handlers.onHide);
  // The network coming back is a wake-up too: anything may have changed meanwhile.
  window.addEventListener('online', handlers.onWake);
  connect();

  return () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    source?.close();
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', handlers.onHide);
    window.removeEventListener('online', handlers.onWake);
  };
}
