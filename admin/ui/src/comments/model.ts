// Comments in the admin app (CONTRACT §8): how many wait (the status bar's badge), and
// one stamp every list redraws on after a moderation, wherever it was made.
import { api } from '../api.ts';
import { Store } from '../store.ts';
import type { ModerationAction } from '../types.ts';

/** Pending comments and mentions; null until the first answer. */
export const pendingCount = new Store<number | null>(null);
/** Bumped after every moderation or reply: lists of comments load again. */
export const commentsStamp = new Store(0);

const POLL_MS = 60_000;
let timer: ReturnType<typeof setInterval> | null = null;

export async function refreshPending(): Promise<number> {
  const { total } = await api.commentQueue();
  pendingCount.set(total);
  return total;
}

/** The badge keeps itself current while the app is open (a visitor may comment any time). */
export function startPendingPolling(): () => void {
  void refreshPending().catch(() => undefined);
  timer ??= setInterval(() => void refreshPending().catch(() => undefined), POLL_MS);
  const wake = () => document.visibilityState === 'visible' && void refreshPending().catch(() => undefined);
  document.addEventListener('visibilitychange', wake);
  return () => {
    if (timer) clearInterval(timer);
    timer = null;
    document.removeEventListener('visibilitychange', wake);
  };
}

export async function moderate(id: string, action: ModerationAction): Promise<void> {
  await api.moderate(id, action);
  commentsStamp.update((n) => n + 1);
  await refreshPending().catch(() => undefined);
}

export async function reply(id: string, body: string): Promise<void> {
  await api.replyToComment(id, body);
  commentsStamp.update((n) => n + 1);
  await refreshPending().catch(() => undefined);
}

/** A note's path as a title: its name without the extension. */
export function noteName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.(md|markdown|tex)$/i, '');
}
