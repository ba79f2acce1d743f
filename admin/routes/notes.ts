// Notes and the tree (CONTRACT §3). Handlers validate, call one domain function,
// and map its answer to HTTP.
import type { Polka, Request } from 'polka';
import { parseFrontmatter } from '../../shared/note/frontmatter.ts';
import { isNotePath, parseVaultPath, type VaultPath } from '../../shared/vault-path.ts';
import type { AdminContext } from '../context.ts';
import { notFound, refuse } from '../../shared/errors.ts';
import { queryOne, queryValues, readJsonBody, route } from '../http.ts';
import { walkVault } from '../vault/tree.ts';

export function notePathParam(req: Request, key = 'path'): VaultPath {
  return parseVaultPath(queryOne(req, key));
}

export function requireNotePath(p: VaultPath): VaultPath {
  if (!isNotePath(p)) throw refuse('not_a_note', 'Notes end in .md, .markdown or .tex.');
  return p;
}

function optionalMtime(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw refuse('bad_mtime', 'baseMtimeMs must be a number of milliseconds.');
  }
  return value;
}

function optionalHash(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !/^[0-9a-f]{40}$/.test(value)) throw refuse('bad_hash', 'baseHash must be the hash a read or a save answered.');
  return value;
}

export function registerNoteRoutes(app: Polka, ctx: AdminContext): void {
  app.get(
    '/api/tree',
    route(async () => ({ entries: await walkVault(ctx.config.vaultDir, ctx.skipDirs) })),
  );

  app.get(
    '/api/note',
    route(async (req) => {
      const note = await ctx.writer.readNote(notePathParam(req));
      if (!note) throw notFound('No note at that path.', 'note');
      return note;
    }),
  );

  app.put(
    '/api/note',
    route(async (req) => {
      const p = requireNotePath(notePathParam(req));
      const body = await readJsonBody(req);
      if (typeof body.content !== 'string') throw refuse('bad_content', 'content must be a string.');
      // Standards: malformed frontmatter is bad input, refused before anything is written.
      const problem = parseFrontmatter(body.content, p).problem;
      if (problem) throw refuse('bad_frontmatter', `The frontmatter block is not valid YAML: ${problem}`, { problem });
      if (body.overwrite !== undefined && typeof body.overwrite !== 'boolean') throw refuse('bad_overwrite', 'overwrite must be true or false.');
      if (body.restore !== undefined && typeof body.restore !== 'boolean') throw refuse('bad_restore', 'restore must be true or false.');
      const result = await ctx.writer.writeNote(p, body.content, {
        baseMtimeMs: optionalMtime(body.baseMtimeMs),
        baseHash: optionalHash(body.baseHash),
        overwrite: body.overwrite === true,
        naming: true,
        // A commit's text restored from History (spec 4.2): what it replaces is always kept first.
        ...(body.restore === true ? { reason: 'Before a restore' as const, mustKeep: true } : {}),
      });
      return { path: result.path, mtimeMs: result.mtimeMs, hash: result.hash };
    }),
  );

  app.get(
    '/api/note/state',
    route(async (req) => {
      const paths = queryValues(req, 'path').map((p) => parseVaultPath(p));
      if (paths.length > 500) throw refuse('too_many', 'Ask for at most 500 paths at once.', { max: 500 });
      const states = await Promise.all(paths.map(async (p) => ({ path: p, ...(await ctx.writer.stateOf(p)) })));
      return { states };
    }),
  );

  // Where a note that is gone went (a rename elsewhere): the strip offers to save there instead.
  app.get(
    '/api/note/moved',
    route(async (req) => {
      const p = requireNotePath(notePathParam(req));
      const hash = req.query.hash === undefined ? undefined : optionalHash(queryOne(req, 'hash'));
      return { path: p, movedTo: await ctx.movedNotes.whereIs(p, hash) };
    }),
  );

  app.post(
    '/api/note/rename',
    route(async (req) => {
      const body = await readJsonBody(req);
      return ctx.renamer.rename(parseVaultPath(body.path), parseVaultPath(body.to));
    }),
  );

  app.delete(
    '/api/note',
    route(async (req) => {
      const entry = await ctx.trash.remove(notePathParam(req));
      return { id: entry.id, path: entry.path, trashPath: entry.trashPath };
    }),
  );
}
