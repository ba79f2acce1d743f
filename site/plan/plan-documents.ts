// The pages of published bases and canvases (documents.ts), rendered through the article
// view and template: the body is the document's HTML, made once per plan and signed by
// its digest, so the page renders again exactly when what it shows changes. Each is a
// family reading the notes its rendering reads (every published note for a base).
import { FRONT_PAGE, isReservedAddress, isWritableAddress, outputFileOf } from '../../shared/model/addresses.ts';
import { backlinksViews, type ArticleView } from './plan-articles.ts';
import { byTitle } from '../../shared/model/links.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { breadcrumbsOf, breadcrumbsSig, folderKey } from './explorer.ts';
import { documentAddress, documentHtml, documentReads, documentTitle, isDocumentPath, standIn } from './documents.ts';
import type { PageContext } from './page-context.ts';
import { withLazySig, type PageFamily } from './plan-types.ts';
import { documentBacklinksOf, withSnippetMath } from './reader-tools.ts';
import { digest } from './sig-digests.ts';

/** The explorer marker of a document's page: its own address, and its folders open. */
function hereOf(ctx: PageContext, p: string, folder: string): string {
  const parts = folder === '' ? [] : folder.split('/');
  const open = parts.map((_, i) => folderKey(parts.slice(0, i + 1).join('/')));
  return [folderKey(ctx.url(documentAddress(p))), ...open].join(' ');
}

const linkersByContext = new WeakMap<PageContext, Map<string, NoteRecord[]>>();

/**
 * The published notes linking to or embedding each document, by title: "Linked from" on its
 * page, as on a note's (Obsidian counts an embed as a link). One pass over the visible notes'
 * files per plan.
 */
function documentLinkers(ctx: PageContext, p: string): NoteRecord[] {
  let byDocument = linkersByContext.get(ctx);
  if (!byDocument) {
    byDocument = new Map();
    for (const note of ctx.model.visible) {
      const seen = new Set<string>();
      for (const written of note.embeds) {
        const target = written.replace(/[#?][^]*$/, '');
        if (!isDocumentPath(target)) continue;
        const found = ctx.attachments.resolve(target, note);
        if (found === null || seen.has(found)) continue;
        seen.add(found);
        const list = byDocument.get(found);
        if (list) list.push(note);
        else byDocument.set(found, [note]);
      }
    }
    for (const list of byDocument.values()) list.sort(byTitle);
    linkersByContext.set(ctx, byDocument);
  }
  // The records as the model holds them now: a quick pass swaps in an edited note's new record (its sentence here).
  return (byDocument.get(p) ?? []).map((note) => ctx.model.byAddress.get(note.address) ?? note);
}

function documentView(ctx: PageContext, p: string, html: string): ArticleView {
  const backlinks = documentBacklinksOf(ctx, documentLinkers(ctx, p), p);
  const address = documentAddress(p);
  const title = documentTitle(p);
  const file = standIn(p);
  const garden = ctx.frame.layout === 'default';
  return {
    file: outputFileOf(address),
    url: ctx.url(address),
    canonical: ctx.absolute(address),
    title,
    titleId: null,
    metaDescription: title,
    lang: ctx.frame.lang,
    dir: ctx.frame.dir,
    dateIso: '',
    dateText: '',
    updated: null,
    wordsText: '',
    minutesText: '',
    tags: [],
    html,
    ogImage: null,
    older: null,
    newer: null,
    related: [],
    alternates: [],
    counterpart: null,
    twin: null,
    share: [],
    editPath: '',
    isPage: true,
    cssClasses: /\.canvas$/i.test(p) ? 's-document s-document-canvas' : 's-document s-document-base',
    needs: withSnippetMath({ math: html.includes('class="katex'), mermaid: false }, backlinks),
    discussion: null,
    garden,
    showDate: false,
    here: garden ? hereOf(ctx, p, file.folder) : null,
    breadcrumbs: garden ? breadcrumbsOf(ctx, file) : [],
    toc: null,
    ...backlinksViews(ctx, backlinks),
    graph: null,
    properties: [],
  };
}

function documentFamily(ctx: PageContext, p: string): PageFamily {
  const address = documentAddress(p);
  // Drawn as it is planned, not when its page is written: the pictures a canvas or a base's cards show are
  // published (ctx.publish) while it is drawn, and plan.ts copies what is registered once the pages are planned.
  const html = documentHtml(ctx, p, null);
  const body = () => html;
  const garden = ctx.frame.layout === 'default';
  const page = withLazySig(
    { address, file: outputFileOf(address), kind: 'article' as const, type: 'html' as const, view: () => documentView(ctx, p, body()) },
    () =>
      [
        ctx.frameSig,
        ctx.publishCss ?? '',
        garden ? `${hereOf(ctx, p, standIn(p).folder)}\u0001${breadcrumbsSig(ctx, standIn(p))}` : '',
        digest(body()),
        documentLinkers(ctx, p).map((note) => ctx.linkSig(note)).join('\u0002'),
        documentBacklinksOf(ctx, documentLinkers(ctx, p), p).map((b) => b.snippetHtml).join('\u0002'),
      ].join('\u0000'),
  );
  // The notes linking here are read too: a title changed is a list changed.
  const reads = [...new Set([...documentReads(ctx, p), ...documentLinkers(ctx, p)])];
  return { key: `document:${p}`, pages: [page], reads, replan: () => documentFamily(ctx, p) };
}

/**
 * The bases and canvases that are pages, in path order: each a published note links to or
 * embeds. One whose address is the site's own (`search.base` → `/search`), the front page's or
 * a note's is left out: planned before the site's pages, it would otherwise take their place.
 * The sitemap and the search index list these same pages.
 */
export function publishedDocuments(ctx: PageContext): string[] {
  const free = (p: string) => {
    const address = documentAddress(p);
    return address !== FRONT_PAGE && !isReservedAddress(address) && isWritableAddress(address) && !ctx.model.byAddress.has(address);
  };
  return [...ctx.published.keys()].filter((p) => isDocumentPath(p) && free(p)).sort();
}

export function planDocuments(ctx: PageContext): PageFamily[] {
  return publishedDocuments(ctx).map((p) => documentFamily(ctx, p));
}
