// The vault tree as the file panel draws it: folders first, then notes and
// attachments, each sorted by name; folds remembered on this device only
// (Appendix C: fold state stays on the device).
import { api } from '../api.ts';
import { naturalCompare } from '../../../../shared/natural-order.ts';
import { Store } from '../store.ts';
import type { NoteMeta, TreeEntry } from '../types.ts';

export interface TreeNode {
  path: string;
  name: string;
  kind: TreeEntry['kind'];
  children: TreeNode[];
}

export const entries = new Store<TreeEntry[]>([]);

/** Each note's title, aliases, tags and publish flag (GET /api/notes), by path. */
export const notesMeta = new Store<Map<string, NoteMeta>>(new Map());

/** Bumped each time the tree was read again: something in the vault changed (0: not read yet). */
export const vaultStamp = new Store<number>(0);

/** Why the tree could not be read, until it is (the panel says so rather than "empty"). */
export const treeProblem = new Store<string | null>(null);

const FOLD_KEY = 'vault-admin-open-folders';
export const openFolders = new Store<Set<string>>(readFolds());

function readFolds(): Set<string> {
  try {
    return new Set(JSON.parse(localStorage.getItem(FOLD_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

export function toggleFolder(path: string, open?: boolean): void {
  const next = new Set(openFolders.get());
  const want = open ?? !next.has(path);
  if (want) next.add(path);
  else next.delete(path);
  openFolders.set(next);
  try {
    localStorage.setItem(FOLD_KEY, JSON.stringify([...next]));
  } catch {
    /* fold state is a nicety */
  }
}

/** Opens every folder above a path, so the row is visible. */
export function revealPath(path: string): void {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) toggleFolder(parts.slice(0, i).join('/'), true);
}

let refreshing: Promise<void> | null = null;
let again = false;

export async function refreshTree(): Promise<void> {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      const [answer, meta] = await Promise.all([api.tree(), api.notes().catch(() => null)]).catch((err: Error) => {
        treeProblem.set(err.message);
        throw err;
      });
      treeProblem.set(null);
      entries.set(answer.entries);
      if (meta) notesMeta.set(new Map(meta.notes.map((n) => [n.path, n])));
      vaultStamp.update((n) => n + 1);
    } while (again);
  })().finally(() => (refreshing = null));
  return refreshing;
}

export function buildTree(list: TreeEntry[]): TreeNode[] {
  const root: TreeNode = { path: '', name: '', kind: 'folder', children: [] };
  const folders = new Map<string, TreeNode>([['', root]]);
  const folderOf = (path: string): TreeNode => {
    const existing = folders.get(path);
    if (existing) return existing;
    const slash = path.lastIndexOf('/');
    const node: TreeNode = { path, name: path.slice(slash + 1), kind: 'folder', children: [] };
    folders.set(path, node);
    folderOf(slash < 0 ? '' : path.slice(0, slash)).children.push(node);
    return node;
  };
  for (const entry of list) {
    if (entry.kind === 'folder') {
      folderOf(entry.path);
      continue;
    }
    const slash = entry.path.lastIndexOf('/');
    folderOf(slash < 0 ? '' : entry.path.slice(0, slash)).children.push({
      path: entry.path,
      name: entry.path.slice(slash + 1),
      kind: entry.kind,
      children: [],
    });
  }
  const order = (a: TreeNode, b: TreeNode) =>
    (a.kind === 'folder' ? 0 : 1) - (b.kind === 'folder' ? 0 : 1) || naturalCompare(a.name, b.name);
  const sort = (node: TreeNode) => {
    node.children.sort(order);
    node.children.forEach(sort);
  };
  sort(root);
  return root.children;
}

export function notesUnder(folder: string, list: TreeEntry[] = entries.get()): string[] {
  return list.filter((e) => e.kind === 'note' && e.path.startsWith(folder + '/')).map((e) => e.path);
}

export function isImage(path: string): boolean {
  return /\.(png|jpe?g|gif|webp|avif|svg)$/i.test(path);
}
