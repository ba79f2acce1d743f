// Article pages (spec D.1): title, date, word count, reading time, tags, body,
// share links, previous/next, Related, twins, a place for comments and mentions.
import { authorMs } from '../../shared/note/dates.ts';
import { FRONT_PAGE, outputFileOf, type Address } from '../../shared/model/addresses.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { directionOf } from '../../shared/note/language.ts';
import { readingMinutes } from '../../shared/note/excerpt.ts';
import { discussionView, type DiscussionView } from './discussion-view.ts';
import type { ChipView, LinkView, PageContext } from './page-context.ts';
import { withLazySig, type PageFamily, type PlannedPage } from './plan-types.ts';
import { localGraph, localGraphSig, type GraphView } from './local-graph.ts';
import { BACKLINK_SENTENCES, backlinksOf, backlinksSig, linkedFace, relatedBesideBacklinks, tocOf, withSnippetMath, type BacklinkView, type TocEntry } from './reader-tools.ts';
import { breadcrumbsOf, breadcrumbsSig, explorerHere, type Breadcrumb } from './explorer.ts';
import { propertiesOf, propertiesSig, propertyTargets, type PropertyView } from './properties.ts';
import { noteDocumentReads, noteDocumentsSig } from './documents.ts';
import { textCompare } from '../../shared/natural-order.ts';

export interface ArticleView {
  file: string;
  url: string;
  canonical: string;
  title: string;
  /** The id of the heading the title came from (links to it land on the title). */
  titleId: string | null;
  metaDescription: string;
  lang: string;
  dir: 'rtl' | 'ltr';
  dateIso: string;
  dateText: string;
  /** "Updated <date>": the text changed on a later day than the note's date. */
  updated: { iso: string; text: string } | null;
  wordsText: string;
  minutesText: string;
  tags: ChipView[];
  html: string;
  ogImage: string | null;
  older: LinkView | null;
  newer: LinkView | null;
  related: LinkView[];
  /** hreflang alternates, when a twin in the other language exists (spec D.7). */
  alternates: { hreflang: string; href: string }[];
  /** The counterpart of a same-language pair, named under the title. */
  counterpart: LinkView | null;
  /** The twin in the other language, linked under the title. */
  twin: (LinkView & { lang: string }) | null;
  share: { name: string; href: string }[];
  editPath: string;
  isPage: boolean;
  /** Frontmatter `cssclasses`, for the article element. */
  cssClasses: string;
  /** The body (embeds included) has math or a diagram: the page loads KaTeX's stylesheet or mermaid's script. */
  needs: { math: boolean; mermaid: boolean };
  /** Comments and mentions (CONTRACT §8), null while comments are off. */
  discussion: DiscussionView | null;
  /** The garden layout (CONTRACT §12): explorer, breadcrumbs, no previous/next. */
  garden: boolean;
  /** The date line: a blog post's, or a garden note's whose date its frontmatter gives. */
  showDate: boolean;
  /** The page's explorer marker (explorer.ts explorerHere), in the garden. */
  here: string | null;
  breadcrumbs: Breadcrumb[];
  /** The table of contents (CONTRACT §12), for three or more headings. */
  toc: TocEntry[] | null;
  /** "Linked from" (CONTRACT §12): published notes linking here, the first with their sentence. */
  backlinks: BacklinkView[];
  /** Those past the ones with a sentence, folded under "N more" (reader-tools.ts BACKLINK_SENTENCES). */
  backlinksMore: { list: BacklinkView[]; text: string } | null;
  /** The local graph (CONTRACT §12): the note and its neighbours, drawn at build time. */
  graph: GraphView | null;
  /** The properties panel (setting publishing.properties): [] while it is off. */
  properties: PropertyView[];
}

/** "Linked from" as a page shows it: the first with their sentence, the rest folded under their count. */
export function backlinksViews(ctx: PageContext, all: BacklinkView[]): Pick<ArticleView, 'backlinks' | 'backlinksMore'> {
  if (all.length <= BACKLINK_SENTENCES) return { backlinks: all, backlinksMore: null };
  const rest = all.length - BACKLINK_SENTENCES;
  return { backlinks: all.slice(0, BACKLINK_SENTENCES), backlinksMore: { list: all.slice(BACKLINK_SENTENCES), text: ctx.frame.strings.linkedFromMore(ctx.fmt.number(rest), rest) } };
}

function shareLinks(ctx: PageContext, note: NoteRecord): { name: string; href: string }[] {
  if (!ctx.frame.shareButtons) return [];
  const u = ctx.frame.baseEncoded + encodeURIComponent(ctx.url(ctx.addressOf(note)));
  const t = encodeURIComponent(note.title);
  return [
    { name: 'X', href: `https://twitter.com/intent/tweet?url=${u}&text=${t}` },
    { name: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { name: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { name: 'Telegram', href: `https://t.me/share/url?url=${u}&text=${t}` },
    { name: 'WhatsApp', href: `https://wa.me/?text=${t}%20${u}` },
    { name: ctx.frame.strings.email, href: `mailto:?subject=${t}&body=${u}` },
  ];
}

/** x-default is the face written in the site's own language (spec D.7). */
export function twinAlternates(ctx: PageContext, note: NoteRecord, twin: NoteRecord): { hreflang: string; href: string }[] {
  const faces = [note, twin].sort((a, b) => textCompare(a.lang, b.lang));
  const home = faces.find((f) => f.lang === ctx.frame.lang) ?? note;
  return [
    ...faces.map((f) => ({ hreflang: f.lang, href: ctx.absolute(ctx.addressOf(f)) })),
    { hreflang: 'x-default', href: ctx.absolute(ctx.addressOf(home)) },
  ];
}

/** The note's last change, when its text changed on a later day than its date. */
export function updatedOf(ctx: PageContext, note: NoteRecord): { iso: string; text: string } | null {
  const ms = note.changedMs;
  if (ms === null || ms <= note.date.ms) return null;
  const text = ctx.fmt.date(authorMs(note.date, ms));
  return text === ctx.fmt.date(authorMs(note.date)) ? null : { iso: new Date(ms).toISOString(), text };
}

/** The garden reads notes as notes: no previous/next chain (CONTRACT §12). */
const isGarden = (ctx: PageContext) => ctx.frame.layout === 'default';
const neighboursOf = (ctx: PageContext, note: NoteRecord) => (isGarden(ctx) ? undefined : ctx.model.neighbours.get(note.path));
/** Related: the blog's list, or the garden's beside the backlinks (without the notes they list). */
const relatedOf = (ctx: PageContext, note: NoteRecord) => (isGarden(ctx) ? relatedBesideBacklinks(ctx, note) : (ctx.model.related.get(note.path) ?? []));
/** The date line: a blog post's, or a garden note's whose date its frontmatter gives. */

export function articleView(ctx: PageContext, note: NoteRecord, address: Address = note.address): ArticleView {
  const { model, fmt } = ctx;
  const around = neighboursOf(ctx, note);
  const garden = isGarden(ctx);
  const twin = model.twins.get(note.path) ?? null;
  const crossLanguage = twin !== null && twin.lang !== note.lang;
  const backlinks = backlinksOf(ctx, note);
  return {
    file: outputFileOf(address),
    url: ctx.url(address),
    canonical: ctx.absolute(address === FRONT_PAGE ? FRONT_PAGE : ctx.addressOf(note)),
    title: note.title,
    titleId: note.titleId,
    metaDescription: note.description ?? note.excerpt,
    lang: note.lang,
    dir: directionOf(note.lang),
    dateIso: new Date(note.date.ms).toISOString(),
    dateText: fmt.date(authorMs(note.date)),
    updated: updatedOf(ctx, note),
    // A page of pictures alone (a drawing, a gallery) says nothing of words or reading time.
    wordsText: note.words === 0 ? '' : ctx.frame.strings.words(fmt.number(note.words), note.words),
    minutesText: ctx.frame.strings.minutes(fmt.number(readingMinutes(note.words)), readingMinutes(note.words)),
    tags: ctx.chips(note),
    html: ctx.bodies.html(note),
    ogImage: (() => {
      const img = ctx.imageUrl(note.banner, note);
      return img === null ? null : img.startsWith('/') ? ctx.frame.base + img : img;
    })(),
    older: around?.older ? ctx.link(around.older) : null,
    newer: around?.newer ? ctx.link(around.newer) : null,
    related: relatedOf(ctx, note).map((r) => ctx.link(r)),
    alternates: crossLanguage ? twinAlternates(ctx, note, twin) : [],
    counterpart: twin && !crossLanguage ? ctx.link(twin) : null,
    twin: twin && crossLanguage ? { ...ctx.link(twin), lang: twin.lang } : null,
    share: shareLinks(ctx, note),
    editPath: note.path,
    isPage: note.page,
    cssClasses: note.cssClasses.join(' '),
    needs: withSnippetMath(ctx.bodies.needs(note), backlinks),
    discussion: discussionView(ctx, note),
    garden,
    showDate: ctx.showsDate(note),
    here: garden ? explorerHere(ctx, note) : null,
    breadcrumbs: garden ? breadcrumbsOf(ctx, note) : [],
    toc: tocOf(note),
    ...backlinksViews(ctx, backlinks),
    graph: localGraph(ctx, note),
    properties: propertiesOf(ctx, note, ctx.showsDate(note)),
  };
}

export function articleSig(ctx: PageContext, note: NoteRecord): string {
  const { model } = ctx;
  const around = neighboursOf(ctx, note);
  const twin = model.twins.get(note.path) ?? null;
  // The note itself is the cache key: a changed note is a new record. The notes whose text
  // the page shows (embedded ones, and the headings of linked ones, embedded notes' links
  // included) are dependencies too: editing one re-renders the pages that show it. Its
  // approved comments and mentions too: a moderation re-renders this page alone.
  const discussed = ctx.discussionOf(note)?.sig ?? '';
  const crumbs = isGarden(ctx) ? breadcrumbsSig(ctx, note) : '';
  const deps = [...ctx.world, discussed, crumbs, around?.older ?? null, around?.newer ?? null, twin, ...articleReads(ctx, note), ...propertyTargets(ctx, note)];
  return ctx.memory.articleSigs.get(note, deps, () => buildArticleSig(ctx, note));
}

function buildArticleSig(ctx: PageContext, note: NoteRecord): string {
  const { model } = ctx;
  const around = neighboursOf(ctx, note);
  const twin = model.twins.get(note.path) ?? null;
  return [
    ctx.frameSig,
    note.hash,
    note.date.ms,
    note.changedMs ?? '',
    ctx.bodies.bodySig(note),
    ctx.chipsSig(note),
    ctx.imageUrl(note.banner, note) ?? '',
    ctx.linkSig(around?.older ?? null),
    ctx.linkSig(around?.newer ?? null),
    relatedOf(ctx, note).map((r) => ctx.linkSig(r)).join('|'),
    twin ? `${ctx.linkSig(twin)}\u0001${twin.lang}` : '-',
    ctx.discussionOf(note)?.sig ?? '',
    note.date.source === 'frontmatter',
    isGarden(ctx) ? `${explorerHere(ctx, note)}\u0001${breadcrumbsSig(ctx, note)}` : '',
    backlinksSig(ctx, note),
    localGraphSig(ctx, note),
    propertiesSig(ctx, note, ctx.showsDate(note)),
    noteDocumentsSig(ctx, note),
  ].join('\u0000');
}

function articlePage(ctx: PageContext, note: NoteRecord): PlannedPage {
  return withLazySig(
    { address: note.address, file: outputFileOf(note.address), kind: 'article' as const, type: 'html' as const, view: () => articleView(ctx, note) },
    () => articleSig(ctx, note),
  );
}

/**
 * What a note's page shows of other notes' text: the notes it embeds, and the headings
 * of the notes it (or an embedded note) links to (their anchors).
 */
export function articleReads(ctx: PageContext, note: NoteRecord): NoteRecord[] {
  const embedded = ctx.bodies.embedded(note);
  const reads = [note, ...embedded, ...(ctx.model.related.get(note.path) ?? [])];
  for (const other of embedded) reads.push(...(ctx.model.related.get(other.path) ?? []));
  // Its bases read every published note; its embedded canvases the notes they name.
  const documents = noteDocumentReads(ctx, note);
  if (documents.length) return [...new Set([...reads, ...documents])];
  return reads;
}

/** The key of a note's article family. */
export const articleKey = (path: string): string => `article:${path}`;
export const isArticleKey = (key: string): boolean => key.startsWith('article:');

/** A note's article, as a family reading what it shows (articleReads). */
function articleFamily(ctx: PageContext, note: NoteRecord): PageFamily {
  let shown: Set<string> | null = null;
  return {
    key: articleKey(note.path),
    pages: [articlePage(ctx, note)],
    reads: articleReads(ctx, note),
    replan: () => articleFamily(ctx, ctx.model.byAddress.get(note.address)!),
    // The notes whose text the page shows: its own, what it embeds, what its bases and canvases read; the rest it links.
    linkedFace: (other) => {
      shown ??= new Set([note, ...ctx.bodies.embedded(note), ...noteDocumentReads(ctx, note)].map((r) => r.path));
      return shown.has(other.path) ? null : linkedFace(ctx, other, note);
    },
  };
}

export function planArticles(ctx: PageContext): PageFamily[] {
  for (const note of ctx.model.visible) if (note.embeds.length || note.banner) ctx.publishAttachmentsOf(note);
  // The front note is read at `/` (plan-lists.ts): its own address answers 301 there.
  return ctx.model.visible.filter((note) => note.path !== ctx.frontPath).map((note) => articleFamily(ctx, note));
}
