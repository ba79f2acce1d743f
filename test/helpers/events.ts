// Reads the admin event stream (GET /api/events) in a test.
export interface ServerEvent {
  event: string;
  data: any;
}

export interface EventReader {
  events: ServerEvent[];
  /** The server ended the stream. */
  readonly ended: boolean;
  waitFor(match: (e: ServerEvent) => boolean, timeoutMs?: number): Promise<ServerEvent>;
  close(): void;
}

export async function openEvents(baseUrl: string, cookie: string): Promise<EventReader> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/events`, { headers: { cookie }, signal: controller.signal });
  if (res.status !== 200) throw new Error(`event stream answered ${res.status}`);
  const events: ServerEvent[] = [];
  const waiters: Array<() => void> = [];
  let ended = false;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = block.match(/^event: (.*)$/m)?.[1];
          const data = block.match(/^data: (.*)$/m)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
          waiters.splice(0).forEach((w) => w());
        }
      }
      ended = true;
    } catch {
      /* aborted */
    }
  })();
  return {
    events,
    get ended() {
      return ended;
    },
    async waitFor(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching event; saw ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => controller.abort(),
  };
}
