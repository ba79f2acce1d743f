// POST /api/login, POST /api/logout, GET /api/me (CONTRACT §2).
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';
import { isAdminRequest } from '../auth/gate.ts';
import { deviceCookie, knownDevice } from '../auth/device-cookie.ts';
import { clearedCookie, readCookie, SESSION_COOKIE, sessionCookie } from '../auth/sessions.ts';
import { refuse } from '../../shared/errors.ts';
import { clientAddress, readJsonBody, route, sendJson } from '../http.ts';

export function registerAuthRoutes(app: Polka, ctx: AdminContext): void {
  app.post(
    '/api/login',
    route(async (req, res) => {
      // Counted before anything is awaited, so parallel guesses are counted too.
      const client = clientAddress(req);
      if (!ctx.loginGuard.attempt(client)) {
        throw refuse('too_many_attempts', 'Too many sign-in attempts; wait a minute and try again.', { reason: 'sign_in' });
      }
      const body = await readJsonBody(req, 64 * 1024);
      const password = body.password;
      if (typeof password !== 'string' || password.length === 0) {
        throw refuse('bad_password', 'A password is required.');
      }
      const deviceKey = await ctx.password.deviceKey();
      await ctx.loginGuard.turn(client, knownDevice(deviceKey, req));
      if (!(await ctx.password.verify(password))) {
        ctx.loginGuard.failed();
        throw refuse('wrong_password', 'That password is not right.');
      }
      const token = ctx.sessions.create();
      sendJson(res, 200, { admin: true }, { 'set-cookie': [sessionCookie(token, req), deviceCookie(deviceKey, req)] });
    }),
  );

  app.post(
    '/api/logout',
    route(async (req, res) => {
      ctx.sessions.destroy(readCookie(req, SESSION_COOKIE));
      sendJson(res, 200, { admin: false }, { 'set-cookie': clearedCookie(req) });
    }),
  );

  app.get(
    '/api/me',
    route((req) => ({ admin: isAdminRequest(ctx.sessions, req) })),
  );
}
