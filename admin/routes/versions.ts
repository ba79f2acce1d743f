// The local version store over HTTP (CONTRACT §4). Restore writes through the
// ordinary write path, so the replaced text is itself kept as a version.
import type { Polka } from 'polka';
import { parseVaultPath } from '../../shared/vault-path.ts';
import type { AdminContext } from '../context.ts';
import { notFound, refuse } from '../../shared/errors.ts';
import { queryOne, readJsonBody, route } from '../http.ts';
import { notePathParam, requireNotePath } from './notes.ts';

function versionAt(value: unknown): string {
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value)) throw refuse('bad_at', 'at must be the digits of a version time.');
  return value;
}

export function registerVersionRoutes(app: Polka, ctx: AdminContext): void {
  app.get(
    '/api/versions',
    route(async (req) => {
      const p = notePathParam(req);
      return { enabled: await ctx.versionsEnabled(), versions: await ctx.versions.list(p) };
    }),
  );

  app.get(
    '/api/versions/one',
    route(async (req) => {
      const p = notePathParam(req);
      const at = versionAt(queryOne(req, 'at'));
      const content = await ctx.versions.read(p, at);
      if (content === null) throw notFound('No such version.', 'version');
      return { path: p, at, content };
    }),
  );

  // The editor's own text, set aside as a version when the owner takes the disk's instead (the
  // strip's Use the disk version, a restore of the disk's text): kept whatever the setting and
  // its size, as a restore's is, under the spec's reason for one.
  app.post(
    '/api/versions/keep',
    route(async (req) => {
      const body = await readJsonBody(req);
      const p = requireNotePath(parseVaultPath(body.path));
      if (typeof body.content !== 'string') throw refuse('bad_content', 'content must be a string.');
      if ((await ctx.writer.mtimeOf(p)) === null) throw notFound('No such note.', 'note_missing');
      const outcome = await ctx.versions.keep(p, { data: Buffer.from(body.content, 'utf8'), savedAtMs: Date.now(), reason: 'Before a restore', overwrite: true, anySize: true });
      return { path: p, kept: outcome === 'kept' };
    }),
  );

  app.post(
    '/api/versions/restore',
    route(async (req) => {
      const body = await readJsonBody(req);
      const p = requireNotePath(parseVaultPath(body.path));
      const at = versionAt(typeof body.at === 'number' ? String(body.at) : body.at);
      // The kept bytes go back exactly (spec 9: a restore brings back what the note held).
      const content = await ctx.versions.readBytes(p, at);
      if (content === null) throw notFound('No such version.', 'version');
      const result = await ctx.writer.writeNote(p, content, { reason: 'Before a restore', mustKeep: true });
      return { path: result.path, mtimeMs: result.mtimeMs, hash: result.hash };
    }),
  );
}
