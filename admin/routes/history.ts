// History routes (spec 4.2, CONTRACT §4): /api/history lists the commits that touched
// a note (renames followed), /api/history/blob reads the note at one of them.
import type { Polka } from 'polka';
import { parseVaultPath } from '../../shared/vault-path.ts';
import type { AdminContext } from '../context.ts';
import { notFound, refuse } from '../../shared/errors.ts';
import { queryOne, route } from '../http.ts';
import { blobAt, noteHistory } from '../git/history.ts';
import { isRepo } from '../git/repo.ts';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;

function limitParam(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_LIMIT;
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > MAX_LIMIT) {
    throw refuse('bad_limit', `limit must be a whole number from 1 to ${MAX_LIMIT}.`);
  }
  return Number(value);
}

/** Only a full commit id: no `HEAD`, `abc^`, ranges or abbreviations (CONTRACT §4). */
function shaParam(value: string | undefined): string {
  if (!value || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(value)) {
    throw refuse('bad_sha', 'sha must be a full commit id (40 hex digits).');
  }
  return value;
}

export function registerHistoryRoutes(app: Polka, ctx: AdminContext): void {
  const vault = ctx.config.vaultDir;

  app.get(
    '/api/history',
    route(async (req) => {
      const p = parseVaultPath(queryOne(req, 'path'));
      const limit = limitParam(queryOne(req, 'limit'));
      if (!(await isRepo(vault))) return { repo: false, revisions: [], truncated: false };
      const page = await noteHistory(vault, p, limit);
      return { repo: true, revisions: page.revisions, truncated: page.truncated };
    }),
  );

  app.get(
    '/api/history/blob',
    route(async (req) => {
      const p = parseVaultPath(queryOne(req, 'path'));
      const sha = shaParam(queryOne(req, 'sha'));
      if (!(await isRepo(vault))) throw notFound('The vault is not a git repository.', 'repo');
      const content = await blobAt(vault, sha, p);
      if (content === null) throw notFound('That revision has no such note.', 'revision');
      return { sha, path: p, content };
    }),
  );
}
