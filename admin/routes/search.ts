// The tools an Obsidian user reaches for first, over the note index:
// vault search, the notes' titles/aliases/tags/publish flags (palette, `[[` suggestions,
// tree marks), a note's backlinks and its headings.
import { textCompare } from '../../shared/natural-order.ts';
import type { Polka } from 'polka';
import { refuse } from '../../shared/errors.ts';
import type { AdminContext } from '../context.ts';
import { queryOne, route } from '../http.ts';
import { backlinksOf, searchNotes } from '../search/search.ts';
import { notePathParam } from './notes.ts';

const MAX_QUERY = 500;

export function registerSearchRoutes(app: Polka, ctx: AdminContext): void {
  app.get(
    '/api/search',
    route(async (req) => {
      const q = queryOne(req, 'q') ?? '';
      if (q.length > MAX_QUERY) throw refuse('too_long', `A search is at most ${MAX_QUERY} characters.`, { reason: 'search', max: MAX_QUERY });
      const limit = Math.min(200, Math.max(1, Number(queryOne(req, 'limit') ?? 50) || 50));
      return searchNotes(ctx.notes, q, limit);
    }),
  );

  app.get(
    '/api/notes',
    route(async () => ({
      notes: (await ctx.notes.all())
        .map(({ path, title, aliases, tags, publish }) => ({ path, title, aliases, tags, publish }))
        .sort((a, b) => textCompare(a.path, b.path)),
    })),
  );

  app.get(
    '/api/backlinks',
    route(async (req) => ({ backlinks: await backlinksOf(ctx.notes, notePathParam(req)) })),
  );

  app.get(
    '/api/headings',
    route(async (req) => ({ headings: (await ctx.notes.get(notePathParam(req)))?.headings ?? [] })),
  );
}
