// The bin (CONTRACT §3): list, restore, erase one, empty.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';
import { refuse } from '../../shared/errors.ts';
import { queryOne, readJsonBody, route } from '../http.ts';

export function registerTrashRoutes(app: Polka, ctx: AdminContext): void {
  app.get(
    '/api/trash',
    route(async () => ({ entries: await ctx.trash.list() })),
  );

  app.post(
    '/api/trash/restore',
    route(async (req) => {
      const body = await readJsonBody(req);
      if (typeof body.id !== 'string' || body.id === '') throw refuse('bad_id', 'id must name a trash entry.');
      return ctx.trash.restore(body.id);
    }),
  );

  app.delete(
    '/api/trash',
    route(async (req) => {
      // Emptying the bin takes no question at all: `?ID=x` or `?entry=x` (a typo) once erased every entry.
      const asked = [...new URLSearchParams(req.search ?? '').keys()];
      if (asked.some((key) => key !== 'id')) throw refuse('bad_query', 'DELETE /api/trash takes only id (one entry), or nothing (the whole bin).');
      const id = queryOne(req, 'id');
      if (id === undefined) return ctx.trash.empty();
      await ctx.trash.erase(id);
      return { erased: 1 };
    }),
  );
}
