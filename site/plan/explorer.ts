// The garden's file explorer and breadcrumbs (CONTRACT §12). The explorer is one shared
// fragment (the site's nav fragment, plan-outputs.ts) made once per plan; a page carries
// only a marker naming itself and its folders, filled with the fragment when the page is
// served (site/serve/substitute.ts) or rendered into a snapshot. So a note added or
// renamed re-renders the fragment, not every page that shows it.
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { naturalCompare } from '../../shared/natural-order.ts';
import type { PageContext } from './page-context.ts';
import { folderPageOf } from './folder-addresses.ts';
import { composed } from '../../shared/vault-names.ts';

export interface ExplorerNote {
  title: string;
  url: string;
}

export interface ExplorerFolder {
  /** The folder's vault path ('' for the root). */
  path: string;
  /** The folder's key in the fragment's markup (`data-folder`), as a page's marker names it. */
  key: string;
  /** The folder note's title, else the folder's name. */
  title: string;
  /** The folder note's page, else the folder's own page (folder-addresses.ts); null when it has neither. */
  url: string | null;
  /** The folder's id in the explorer (folderAnchor): where a "more" link leads, and breadcrumbs when the folder has no page. */
  anchor: string;
  folders: ExplorerFolder[];
  notes: ExplorerNote[];
}

export interface Breadcrumb {
  title: string;
  /** The folder note's page, else the folder's own page (folder-addresses.ts), else its place in the explorer (`#…`). */
  url: string;
}

/** A folder path (or a page's address) as the fragment and the page markers write it: no character the templates escape. */
export function folderKey(folder: string): string {
  return encodeURIComponent(folder).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/**
 * The id of a folder in the explorer. CONTRACT §12 gives every folder above a note a
 * breadcrumb link: a folder with neither a folder note nor a page of its own (its address
 * taken) leads to its name in the page's explorer. On the full explorer page the id is on the
 * folder's list, inside its fold, where a "more" link leads: a browser opens the closed
 * folds around the target of an address's fragment, scripts or not.
 */
export function folderAnchor(folder: string): string {
  return `s-folder-${folderKey(folder)}`;
}

const nameOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const stemOf = (p: string) => nameOf(p).replace(/\.[^.]+$/, '');
const byName = (a: { name: string }, b: { name: string }) => naturalCompare(a.name, b.name) || (a.name < b.name ? -1 : 1);

/** The folders above a note, outermost first (a folder note's own folder is the note itself). */
export function foldersAbove(note: Pick<NoteRecord, 'path' | 'folder'>, folderNotePath: string | undefined): string[] {
  const parts = note.folder === '' ? [] : note.folder.split('/');
  const chain = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  return folderNotePath === note.path ? chain.slice(0, -1) : chain;
}

export function breadcrumbsOf(ctx: PageContext, note: Pick<NoteRecord, 'path' | 'folder'>): Breadcrumb[] {
  return foldersAbove(note, ctx.folderNotes().get(note.folder)?.path).map((folder) => folderCrumb(ctx, folder));
}

/** A folder as a breadcrumb: its folder note, else its own page, else its name in the explorer. */
export function folderCrumb(ctx: PageContext, folder: string): Breadcrumb {
  const own = ctx.folderNotes().get(folder);
  if (own) return { title: own.title, url: ctx.url(ctx.addressOf(own)) };
  const page = folderPageOf(ctx, folder);
  return { title: nameOf(folder), url: page ? ctx.url(page) : `#${folderAnchor(folder)}` };
}

/** What a page's breadcrumbs depend on: the folder notes above it (their titles and places). */
export function breadcrumbsSig(ctx: PageContext, note: NoteRecord): string {
  return breadcrumbsOf(ctx, note)
    .map((b) => `${b.title}\u0001${b.url}`)
    .join('\u0002');
}

/**
 * A page's explorer marker: its own address as the fragment links it, and the folders to
 * open (CONTRACT §12's `aria-current="page"` on the current note, its folders open).
 */
export function explorerHere(ctx: PageContext, note: NoteRecord): string {
  const parts = note.folder === '' ? [] : note.folder.split('/');
  const open = parts.map((_, i) => folderKey(parts.slice(0, i + 1).join('/')));
  // A folder note is its folder's summary link: that folder opens too.
  return [folderKey(ctx.url(ctx.addressOf(note))), ...open].join(' ');
}

interface Building {
  path: string;
  name: string;
  folders: Map<string, Building>;
  notes: { name: string; page: ExplorerNote }[];
}

/** A page in the explorer that is no note: a published base or canvas (plan-documents.ts). */
export interface ExplorerDocument {
  path: string;
  title: string;
  url: string;
}

/** The published notes and `documents` as folders and pages, each level by name, folders first. */
export function explorerTree(ctx: PageContext, documents: readonly ExplorerDocument[] = []): ExplorerFolder {
  const notes = ctx.folderNotes();
  const root: Building = { path: '', name: '', folders: new Map(), notes: [] };
  const folderOf = (folder: string): Building => {
    let at = root;
    if (folder === '') return at;
    for (const part of folder.split('/')) {
      // By its composed name: a git vault shared by a Mac and Linux holds one folder spelt both ways (NFC, NFD),
      // one address whose page lists the notes of both, as a Mac shows it.
      const name = composed(part);
      let next = at.folders.get(name);
      if (!next) at.folders.set(name, (next = { path: at.path === '' ? part : `${at.path}/${part}`, name, folders: new Map(), notes: [] }));
      at = next;
    }
    return at;
  };
  for (const note of ctx.model.visible) {
    const at = folderOf(note.folder);
    if (notes.get(note.folder)?.path !== note.path) at.notes.push({ name: stemOf(note.path), page: { title: note.title, url: ctx.url(ctx.addressOf(note)) } });
  }
  for (const d of documents) {
    const slash = d.path.lastIndexOf('/');
    folderOf(slash < 0 ? '' : d.path.slice(0, slash)).notes.push({ name: stemOf(d.path), page: { title: d.title, url: d.url } });
  }
  const done = (b: Building): ExplorerFolder => {
    const own = notes.get(b.path);
    const page = own || b.path === '' ? null : folderPageOf(ctx, b.path);
    return {
      path: b.path,
      key: folderKey(b.path),
      title: own?.title ?? b.name,
      url: own ? ctx.url(ctx.addressOf(own)) : page ? ctx.url(page) : null,
      anchor: folderAnchor(b.path),
      folders: [...b.folders.values()].sort(byName).map(done),
      notes: b.notes.sort(byName).map(({ page }) => page),
    };
  };
  return done(root);
}

/** As the templates escape an attribute's value. */
const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The explorer fragment with one page marked: its link `aria-current="page"` and its
 * folders open. `here` is the page's marker (explorerHere); the fragment is left as it is
 * when it holds no such link.
 */
export function markExplorer(fragment: string, here: string): string {
  const [href, ...folders] = here.split(' ');
  if (!href) return fragment;
  let out = fragment;
  let url: string;
  try {
    url = decodeURIComponent(href);
  } catch {
    return fragment;
  }
  url = escapeAttribute(url);
  // A folder note's link carries its folder's id after the address.
  const link = `<a href="${url}"`;
  let at = out.indexOf(link);
  while (at >= 0 && out[at + link.length] !== '>' && out[at + link.length] !== ' ') at = out.indexOf(link, at + 1);
  if (at >= 0) out = out.slice(0, at + link.length) + ' aria-current="page"' + out.slice(at + link.length);
  for (const key of folders) out = out.replace(`<details data-folder="${key}">`, `<details data-folder="${key}" open>`);
  return out;
}
