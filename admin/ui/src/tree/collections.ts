// The collections the vault declares (spec 2.8, D.5): tag page notes with
// `collection: true`. The settings API reports them when it can; otherwise the
// app reads the vault's notes itself.
import { api } from '../api.ts';
import type { DeclaredCollection } from '../types.ts';
import { isTrue, readKey, readList } from './frontmatter.ts';
import { entries, refreshTree } from './model.ts';

export interface Collection {
  tag: string;
  title: string;
  icon: string;
  description: string | null;
  folder: string | null;
  hidden: boolean;
  path: string | null;
}

const SCAN_LIMIT = 2000;

function fromDeclared(d: DeclaredCollection): Collection | null {
  const tag = d.tag ?? d.slug;
  if (!tag) return null;
  return {
    tag,
    title: d.title ?? tag,
    icon: d.icon ?? '#',
    description: d.description ?? null,
    folder: d.folder ?? null,
    hidden: d.hidden === true,
    path: d.path ?? null,
  };
}

/** A tag page's tag: its `tag:` key, else its file name. */
export function tagOfPage(path: string, content: string): string {
  const explicit = readKey(content, 'tag');
  if (typeof explicit === 'string' && explicit) return explicit.replace(/^#/, '');
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.(md|markdown)$/i, '');
}

async function scanVault(): Promise<Collection[]> {
  if (entries.get().length === 0) await refreshTree();
  const notes = entries.get().filter((e) => e.kind === 'note').slice(0, SCAN_LIMIT);
  const found: Collection[] = [];
  let next = 0;
  const worker = async () => {
    while (next < notes.length) {
      const path = notes[next++]!.path;
      try {
        const { content } = await api.note(path);
        if (!isTrue(readKey(content, 'collection'))) continue;
        const title = readKey(content, 'title');
        const icon = readKey(content, 'icon');
        const description = readKey(content, 'description');
        const folder = readKey(content, 'folder');
        found.push({
          tag: tagOfPage(path, content),
          title: typeof title === 'string' && title ? title : tagOfPage(path, content),
          icon: typeof icon === 'string' && icon ? icon : '#',
          description: typeof description === 'string' ? description : null,
          folder: typeof folder === 'string' && folder ? folder : null,
          hidden: isTrue(readKey(content, 'hidden')),
          path,
        });
      } catch {
        /* a note that vanished meanwhile is skipped */
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return found.sort((a, b) => a.title.localeCompare(b.title));
}

export async function declaredCollections(): Promise<Collection[]> {
  try {
    const settings = await api.settings();
    const declared = settings.collections?.declared;
    if (Array.isArray(declared)) return declared.map(fromDeclared).filter((c): c is Collection => c !== null);
  } catch {
    /* no settings API yet: read the vault */
  }
  return scanVault();
}

/** Which collections a note belongs to, and which of them through its folder (fixed). */
export function membershipOf(path: string, content: string, collections: Collection[]) {
  const tags = new Set([...readList(content, 'tags'), ...readList(content, 'tag')].map((t) => t.toLowerCase()));
  const folders = new Set([...readList(content, 'folders'), ...readList(content, 'folder')].map((t) => t.toLowerCase()));
  return collections.map((c) => {
    const viaFolder = c.folder !== null && (path.startsWith(c.folder.replace(/\/+$/, '') + '/'));
    const viaTag = tags.has(c.tag.toLowerCase()) || folders.has(c.tag.toLowerCase());
    return { collection: c, member: viaFolder || viaTag, viaFolder };
  });
}
