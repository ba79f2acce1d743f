// GET /api/events: Server-Sent Events for the admin's open windows: `changed` (a note) and
// `settings` (this server's settings). The stream replays nothing missed; clients re-check
// open notes and settings when it reconnects (spec 6).
import type { ServerResponse } from 'node:http';
import type { VaultEvents } from '../../shared/vault-events.ts';
import type { SettingsEvents } from './settings-events.ts';
import { isNotePath } from '../../shared/vault-path.ts';

const HEARTBEAT_MS = 25_000;

/**
 * `signedIn` is asked before each thing sent: a stream opened by a session that has since
 * ended (a logout, its expiry) ends at once and sends nothing more. It had gone on naming
 * every changed note to whoever held it, the thief of a session its owner logged out of.
 */
export function openEventStream(res: ServerResponse, events: VaultEvents, settings: SettingsEvents, signedIn: () => boolean): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(': connected\n\n');
  const send = (text: string) => {
    if (signedIn()) res.write(text);
    else res.end();
  };
  const unsubscribe = events.onChange((change) => {
    if (!isNotePath(change.path)) return;
    send(`event: changed\ndata: ${JSON.stringify({ path: change.path })}\n\n`);
  });
  const unsubscribeSettings = settings.onChange(() => send('event: settings\ndata: {}\n\n'));
  const heartbeat = setInterval(() => send(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  res.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    unsubscribeSettings();
  });
}
