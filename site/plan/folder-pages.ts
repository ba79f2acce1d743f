// The garden's folder pages (CONTRACT §12, as Quartz's): a folder without a folder note is
// read at its own address (folder-addresses.ts), listing its published notes and its
// folders as the explorer orders them, with breadcrumbs and the explorer open on it. A
// page shows its notes' titles, places and dates, their shape, never their text: an edit of
// a note's text leaves it as it was, and a note added, removed or retitled plans the site whole.
import { authorMs } from '../../shared/note/dates.ts';
import { outputFileOf, type Address } from '../../shared/model/addresses.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { folderCrumb, folderKey, type Breadcrumb, type ExplorerFolder } from './explorer.ts';
import { folderPages } from './folder-addresses.ts';
import type { PageContext } from './page-context.ts';
import { withLazySig, type PageFamily } from './plan-types.ts';

export interface FolderView {
  file: string;
  url: string;
  canonical: string;
  title: string;
  metaTitle: string;
  metaDescription: string;
  /** The page's explorer marker (explorer.ts explorerHere): its own link, its folder and those above open. */
  here: string;
  breadcrumbs: Breadcrumb[];
  countText: string;
  folders: { title: string; url: string | null; countText: string }[];
  /** A date only where the garden shows one: a note whose frontmatter dates it. */
  notes: { title: string; url: string; dateIso: string | null; dateText: string | null }[];
}

/** The published notes and documents under a folder, at any depth (a folder note is its folder's, not in its list). */
function countOf(ctx: PageContext, folder: ExplorerFolder): number {
  let n = folder.notes.length + (ctx.folderNotes().has(folder.path) ? 1 : 0);
  for (const f of folder.folders) n += countOf(ctx, f);
  return n;
}

function folderView(ctx: PageContext, folder: ExplorerFolder, address: Address, byUrl: Map<string, NoteRecord>): FolderView {
  const { frame } = ctx;
  const parts = folder.path.split('/');
  const above = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
  const url = ctx.url(address);
  const count = countOf(ctx, folder);
  return {
    file: outputFileOf(address),
    url,
    canonical: ctx.absolute(address),
    title: folder.title,
    metaTitle: `${folder.title} · ${frame.name}`,
    metaDescription: `${frame.strings.folder}: ${folder.title}`,
    here: [folderKey(url), ...parts.map((_, i) => folderKey(parts.slice(0, i + 1).join('/')))].join(' '),
    breadcrumbs: above.map((f) => folderCrumb(ctx, f)),
    countText: frame.strings.publishedNotes(ctx.fmt.number(count), count),
    folders: folder.folders.map((f) => {
      const n = countOf(ctx, f);
      return { title: f.title, url: f.url, countText: frame.strings.publishedNotes(ctx.fmt.number(n), n) };
    }),
    notes: folder.notes.map((page) => {
      const note = byUrl.get(page.url);
      const dated = note && ctx.showsDate(note);
      return { title: page.title, url: page.url, dateIso: dated ? new Date(note.date.ms).toISOString() : null, dateText: dated ? ctx.fmt.date(authorMs(note.date)) : null };
    }),
  };
}

/** Every folder page of the garden, each its own family; `explorer`: the plan's explorer tree (plan-outputs.ts navView). */
export function planFolders(ctx: PageContext, explorer: ExplorerFolder | null): PageFamily[] {
  const pages = folderPages(ctx);
  if (!explorer || pages.size === 0) return [];
  const byUrl = new Map(ctx.model.visible.map((note) => [ctx.url(ctx.addressOf(note)), note]));
  const out: PageFamily[] = [];
  const visit = (folder: ExplorerFolder) => {
    const address = pages.get(folder.path);
    if (address) {
      const view = () => folderView(ctx, folder, address, byUrl);
      const page = withLazySig({ address, file: outputFileOf(address), kind: 'folder', type: 'html', view }, () => `${ctx.frameSig}\u0000${JSON.stringify(view())}`);
      // What it shows is the notes' shape: planned again with the whole site, as the explorer is.
      const family: PageFamily = { key: `folder:${folder.path}`, pages: [page], reads: [], replan: () => family };
      out.push(family);
    }
    folder.folders.forEach(visit);
  };
  visit(explorer);
  return out;
}
