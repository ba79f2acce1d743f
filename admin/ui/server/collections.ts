// The collections the vault declares (spec 2.8, D.5): tag page notes with
// `collection: true`, for the settings panel and the note's Collections… dialog.
// Same reading as the public model (shared/model/collections.ts): `tag:` else the
// file name, `slug:`, `title:`, `icon:`, `description:`, `folder:`, `hidden:`.
// Only files whose mtime changed are read again; a note without a `collection:`
// line is never parsed.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { COLLECTION_MARK } from '../../../shared/model/collections.ts';
import { mapLimit, VaultEntries } from '../../../shared/vault-walk.ts';
import { isTrue, parseFrontmatter } from '../../../shared/note/frontmatter.ts';
import { collectionSlug, textValue } from '../../../shared/note/fields.ts';

export interface DeclaredCollection {
  tag: string;
  slug: string;
  title: string;
  icon: string;
  description: string | null;
  /** Vault folder whose published notes all belong ('' when none). */
  folder: string;
  hidden: boolean;
  path: string;
}

interface Found extends DeclaredCollection {
  /** `order:` (or `position:`), the arranged order; only for sorting. */
  order: number;
}

const HEAD_BYTES = 64 * 1024;

async function head(abs: string): Promise<string> {
  const handle = await fs.open(abs, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

function declaration(notePath: string, text: string): Found | null {
  if (!/^collection[ \t]*:/m.test(text)) return null;
  const { data } = parseFrontmatter(text, notePath);
  if (!isTrue(data.collection)) return null;
  const name = path.posix.basename(notePath).replace(/\.(md|markdown|tex)$/i, '');
  const tag = textValue(data.tag)?.replace(/^#/, '') ?? name;
  const folderRaw = textValue(data.folder) ?? (Array.isArray(data.folder) ? textValue(data.folder[0]) : null) ?? '';
  const orderRaw = data.order ?? data.position;
  const order = typeof orderRaw === 'number' ? orderRaw : typeof orderRaw === 'string' ? Number(orderRaw) : NaN;
  return {
    tag,
    slug: collectionSlug(textValue(data.slug) ?? tag),
    title: textValue(data.title) ?? tag,
    icon: textValue(data.icon) ?? COLLECTION_MARK,
    description: textValue(data.description),
    folder: folderRaw.replace(/^\[\[|\]\]$/g, '').replace(/^\/+|\/+$/g, '').trim(),
    hidden: isTrue(data.hidden),
    path: notePath,
    order: Number.isFinite(order) ? order : Number.POSITIVE_INFINITY,
  };
}

export function createDeclaredCollections(vaultDir: string, skipDirs: string[] = []) {
  const cache = new Map<string, { mtimeMs: number; size: number; found: Found | null }>();
  const entries = new VaultEntries(vaultDir, skipDirs);
  return async function declaredCollections(): Promise<DeclaredCollection[]> {
    const paths = await entries.notes();
    const seen = new Set<string>(paths);
    const found = await mapLimit(paths, 32, async (p) => {
      const abs = path.join(vaultDir, ...p.split('/'));
      const stat = await fs.stat(abs).catch(() => null);
      if (!stat?.isFile()) return null;
      const cached = cache.get(p);
      if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.found;
      const decl = declaration(p, await head(abs).catch(() => ''));
      cache.set(p, { mtimeMs: stat.mtimeMs, size: stat.size, found: decl });
      return decl;
    });
    for (const key of cache.keys()) if (!seen.has(key)) cache.delete(key);
    return found
      .filter((c): c is Found => c !== null)
      .sort((a, b) => a.order - b.order || a.tag.toLowerCase().localeCompare(b.tag.toLowerCase()))
      .map(({ order: _order, ...c }) => c);
  };
}
