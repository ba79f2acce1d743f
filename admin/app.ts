// The admin sidecar: a Polka app answering /api/* (and, later, serving /admin/).
import polka, { type Polka } from 'polka';
import type { AdminContext } from './context.ts';
import { apiGate } from './auth/gate.ts';
import { notFound } from '../shared/errors.ts';
import { sendError } from './http.ts';
import { routeModules } from './routes/index.ts';

export function createAdminApp(ctx: AdminContext): Polka {
  const app = polka({
    onNoMatch: (_req, res) => sendError(res, notFound('No such API route.', 'route')),
    onError: (err, _req, res) => sendError(res, err),
  });
  app.use(apiGate(ctx.sessions, ctx.config));
  for (const register of routeModules) register(app, ctx);
  return app;
}
