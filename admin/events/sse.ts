// GET /api/events: Server-Sent Events for the admin's open windows. The stream
// replays nothing missed; clients re-check open notes when it reconnects (spec 6).
import type { ServerResponse } from 'node:http';
import type { VaultEvents } from '../../shared/vault-events.ts';
import { isNotePath } from '../../shared/vault-path.ts';

const HEARTBEAT_MS = 25_000;

export function openEventStream(res: ServerResponse, events: VaultEvents): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(': connected\n\n');
  const unsubscribe = events.onChange((change) => {
    if (!isNotePath(change.path)) return;
    res.write(`event: changed\ndata: ${JSON.stringify({ path: change.path })}\n\n`);
  });
  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  res.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
}
