// POST /webmention (CONTRACT §8, W3C Webmention): form-encoded `source` and `target`;
// 202 once queued for checking, 400 for what is wrong at once. The composer routes it
// here; like every public address it is 401 on a PUBLIC=false instance.
import type { IncomingMessage } from 'node:http';
import type { Polka } from 'polka';
import { refuse } from '../../shared/errors.ts';
import type { AdminContext } from '../context.ts';
import { clientAddress, isFormBody, readFormBody, route, sendJson } from '../http.ts';

const MAX_BODY = 16 * 1024;

/** The hosts this request was sent to (the proxy's forwarded one first). */
function requestHosts(req: IncomingMessage): string[] {
  const hosts: string[] = [];
  for (const h of [req.headers['x-forwarded-host'], req.headers.host]) {
    const v = (Array.isArray(h) ? h[0] : h)?.split(',')[0]?.trim();
    if (v) hosts.push(v);
  }
  return hosts;
}

export function registerWebmentionRoutes(app: Polka, ctx: AdminContext): void {
  app.post(
    '/webmention',
    route(async (req, res) => {
      if (!ctx.config.isPublic) throw refuse('unauthorized', 'This site is private.', { reason: 'private_site' });
      if (!isFormBody(req)) throw refuse('form_only', 'Send source and target form-encoded.');
      await ctx.webmentions.receive(await readFormBody(req, MAX_BODY), requestHosts(req), clientAddress(req));
      sendJson(res, 202, { status: 'accepted' });
    }),
  );
}
