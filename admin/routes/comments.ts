// Comments and mentions (CONTRACT §8). A visitor posts a comment (JSON, or the article's
// form without a script: answered 303 back to the article) and reads the approved ones;
// the admin reads everything, moderates, replies and exports. One domain call each.
import type { Polka, Request } from 'polka';
import { DomainError, refuse } from '../../shared/errors.ts';
import { encodeAddress } from '../../shared/model/addresses.ts';
import { isAdminRequest } from '../auth/gate.ts';
import type { ModerationAction } from '../comments/service.ts';
import type { ListedStatus } from '../comments/store.ts';
import type { AdminContext } from '../context.ts';
import { clientAddress, isFormBody, queryOne, readFormBody, readJsonBody, route, sendJson, sendRefusalPage } from '../http.ts';

const MAX_COMMENT_BODY = 64 * 1024;
const ACTIONS = new Set<ModerationAction>(['approve', 'reject', 'spam', 'delete']);

function idOf(body: Record<string, unknown>): string {
  if (typeof body.id !== 'string' || body.id === '' || body.id.length > 64) throw refuse('required', 'id is required.', { field: 'id' });
  return body.id;
}

export function registerCommentRoutes(app: Polka, ctx: AdminContext): void {
  const isAdmin = (req: Request) => isAdminRequest(ctx.sessions, req);

  app.post(
    '/api/comments',
    route(async (req, res) => {
      const form = isFormBody(req);
      const body = form ? await readFormBody(req, MAX_COMMENT_BODY) : await readJsonBody(req, MAX_COMMENT_BODY);
      let outcome;
      try {
        outcome = await ctx.comments.post(body, { form, client: clientAddress(req) });
      } catch (err) {
        // A form posted without a script and refused gets a page, with what the visitor wrote,
        // not JSON. A 404 (comments off, a draft, no such post) stays the one 404 every post gets.
        const refusal = form && err instanceof DomainError && err.code !== 'not_found' ? err : null;
        const page = refusal ? await ctx.comments.failurePage(refusal, body) : null;
        if (!refusal || !page) throw err;
        return sendRefusalPage(res, refusal, page);
      }
      if (!form) return sendJson(res, 202, { id: outcome.id, status: outcome.status });
      // Back to the article, where the server shows the visitor the notice their comment earned.
      const article = (ctx.config.siteUrl ?? '') + encodeAddress(outcome.address);
      res.writeHead(303, { location: `${article}?comment=${outcome.status}#comments`, 'cache-control': 'no-store', 'content-length': '0' });
      res.end();
    }),
  );

  app.get(
    '/api/comments',
    route((req) => ctx.comments.list(queryOne(req, 'path') ?? null, isAdmin(req))),
  );

  app.get(
    '/api/mentions',
    route((req) => ctx.comments.mentions(queryOne(req, 'path') ?? null, isAdmin(req))),
  );

  app.get(
    '/api/comments/queue',
    route((req) => ctx.comments.queue(queryOne(req, 'path') || null, queryOne(req, 'after') || null, listedStatus(queryOne(req, 'status')))),
  );

  app.post(
    '/api/comments/moderate',
    route(async (req) => {
      const body = await readJsonBody(req);
      const action = body.action as ModerationAction;
      if (!ACTIONS.has(action)) throw refuse('bad_action', 'action must be approve, reject, spam or delete.', { field: 'action' });
      return ctx.comments.moderate(idOf(body), action);
    }),
  );

  app.post(
    '/api/comments/reply',
    route(async (req) => {
      const body = await readJsonBody(req, MAX_COMMENT_BODY);
      return ctx.comments.reply(idOf(body), body.body);
    }),
  );

  app.get(
    '/api/comments/export',
    route((_req, res) => sendJson(res, 200, ctx.comments.export(), { 'content-disposition': 'attachment; filename="comments.json"' })),
  );
}

/** `?status=`: the queue (pending, the default) or what readers see (approved); anything else is a 400. */
function listedStatus(value: string | undefined): ListedStatus {
  if (value === undefined || value === '' || value === 'pending') return 'pending';
  if (value === 'approved') return 'approved';
  throw refuse('bad_status', 'status must be "pending" or "approved".', { field: 'status' });
}
