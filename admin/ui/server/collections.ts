// The collections the vault declares (spec 2.8, D.5), for the settings panel and the
// note's Collections… dialog. The reading is the public model's own
// (shared/model/collections.ts `declaredCollections` over `tagPagesOf`); this module
// only finds the tag page notes cheaply: a note is parsed only when its head could
// make it one, and only again when its mtime changed.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { declaredCollections, type CollectionDeclaration, type DeclaringNote } from '../../../shared/model/collections.ts';
import { tagPagesOf } from '../../../shared/model/topics.ts';
import { parseFrontmatter } from '../../../shared/note/frontmatter.ts';
import { parentOf, stripExtension, type VaultPath } from '../../../shared/vault-path.ts';
import { openRegularFile } from '../../../shared/vault-read.ts';
import { mapLimit, VaultEntries } from '../../../shared/vault-walk.ts';

export type DeclaredCollection = CollectionDeclaration;

const HEAD_BYTES = 64 * 1024;
/** What can make a note a tag page (shared/model/topics.ts `tagPageTag`): a `collection:` key, or its folder. */
const MAY_DECLARE = /^collection[ \t]*:/m;
const TAG_PAGE_FOLDER = /(?:^|\/)(?:topics|tags)$/i;

async function head(abs: string): Promise<string> {
  const opened = await openRegularFile(abs).catch(() => null);
  if (!opened) return '';
  const { handle } = opened;
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

function candidate(p: VaultPath, text: string): DeclaringNote | null {
  const folder = parentOf(p);
  if (!MAY_DECLARE.test(text) && !TAG_PAGE_FOLDER.test(folder)) return null;
  const name = stripExtension(p.slice(p.lastIndexOf('/') + 1));
  return { path: p, folder, name, data: parseFrontmatter(text, p).data };
}

/** `language`: the site's language, as the public model reads titles in it. */
export function createDeclaredCollections(vaultDir: string, skipDirs: string[], language: () => Promise<string>) {
  const cache = new Map<string, { mtimeMs: number; size: number; found: DeclaringNote | null }>();
  const entries = new VaultEntries(vaultDir, skipDirs);
  return async function declared(): Promise<DeclaredCollection[]> {
    const paths = await entries.notes();
    const seen = new Set<string>(paths);
    const found = await mapLimit(paths, 32, async (p) => {
      const abs = path.join(vaultDir, ...p.split('/'));
      const stat = await fs.lstat(abs).catch(() => null);
      if (!stat?.isFile()) return null;
      const cached = cache.get(p);
      if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.found;
      const note = candidate(p, await head(abs).catch(() => ''));
      cache.set(p, { mtimeMs: stat.mtimeMs, size: stat.size, found: note });
      return note;
    });
    for (const key of cache.keys()) if (!seen.has(key)) cache.delete(key);
    const notes = found.filter((n): n is DeclaringNote => n !== null);
    return declaredCollections(tagPagesOf(notes), await language()).map(({ note: _note, ...declaration }) => declaration);
  };
}
