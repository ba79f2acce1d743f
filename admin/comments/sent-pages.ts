// When this server sent a page to a client (CONTRACT §8's 2 s rule for a form posted
// without a script: a static page is the same bytes for everyone, so it cannot carry its
// own load time; the server remembers when it sent it). The first sending within ten
// minutes is kept, so a reader behind a shared address is not judged by another's visit.
const WINDOW_MS = 10 * 60_000;
const MAX_ENTRIES = 50_000;

export class SentPages {
  private sent = new Map<string, number>();

  /** Called for every page a visitor is sent: one map lookup. */
  note(client: string, address: string, now = Date.now()): void {
    const key = `${client} ${address}`;
    const at = this.sent.get(key);
    if (at !== undefined && now - at < WINDOW_MS) return;
    if (this.sent.size >= MAX_ENTRIES) this.sent.clear();
    this.sent.set(key, now);
  }

  /** When `address` was sent to `client` within the window, or null. */
  sentAt(client: string, address: string, now = Date.now()): number | null {
    const at = this.sent.get(`${client} ${address}`);
    return at !== undefined && now - at < WINDOW_MS ? at : null;
  }
}
