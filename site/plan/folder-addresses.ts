// Which folders of the garden are pages of their own (CONTRACT §12, as Quartz's folder
// pages): a folder holding a published note or document, directly or deeper, without a
// folder note, is read at its path's address (`Garden/Seeds/` → `/Garden/Seeds`, spelled as
// a note's address is: no trailing slash; the server sends `/Garden/Seeds/` there with a
// 301). A note or a document that takes that address keeps it, and the folder has no page.
import { FRONT_PAGE, isReservedAddress, isWritableAddress, pathAddress, type Address } from '../../shared/model/addresses.ts';
import { documentAddress, isDocumentPath } from './documents.ts';
import type { PageContext } from './page-context.ts';

const byContext = new WeakMap<PageContext, Map<string, Address>>();

/**
 * Every folder with a page of its own, by vault path, once per plan. Read after the
 * articles are planned (the documents notes publish are known then); the plan's shape is
 * what it reads (visible notes, folder notes, addresses), so a quick pass leaves it as it is.
 */
export function folderPages(ctx: PageContext): Map<string, Address> {
  let pages = byContext.get(ctx);
  if (pages) return pages;
  pages = new Map();
  if (ctx.frame.layout === 'default') {
    const holding = new Set<string>();
    const hold = (folder: string) => {
      for (let at = folder; at !== '' && !holding.has(at); at = at.slice(0, Math.max(0, at.lastIndexOf('/')))) holding.add(at);
    };
    for (const note of ctx.model.visible) hold(note.folder);
    const documents = new Set<Address>();
    for (const p of ctx.published.keys()) {
      if (!isDocumentPath(p)) continue;
      const address = documentAddress(p);
      documents.add(address);
      // As plan-documents.ts publishedDocuments: a document whose address is taken is no page, nor in the explorer.
      if (address !== FRONT_PAGE && !isReservedAddress(address) && isWritableAddress(address) && !ctx.model.byAddress.has(address)) hold(p.slice(0, Math.max(0, p.lastIndexOf('/'))));
    }
    const notes = ctx.folderNotes();
    for (const folder of [...holding].sort()) {
      const address = pathAddress(folder);
      if (notes.has(folder) || ctx.model.byAddress.has(address) || documents.has(address) || isReservedAddress(address) || !isWritableAddress(address)) continue;
      pages.set(folder, address);
    }
  }
  byContext.set(ctx, pages);
  return pages;
}

/** A folder's page address, or null when it has none (a folder note, no published note, the address taken). */
export const folderPageOf = (ctx: PageContext, folder: string): Address | null => folderPages(ctx).get(folder) ?? null;
