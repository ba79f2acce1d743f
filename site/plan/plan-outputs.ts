// The site-wide outputs (spec D.7): the feeds (plan-feeds.ts), /sitemap.xml, /robots.txt,
// the 404 page and the topic row fragment every page includes when it is served.
import { FRONT_PAGE, outputFileOf, type Address } from '../../shared/model/addresses.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import type { PageContext } from './page-context.ts';
import { numberLocale } from './i18n.ts';
import { twinAlternates } from './plan-articles.ts';
import { planFeeds } from './plan-feeds.ts';
import { explorerTree, type ExplorerFolder } from './explorer.ts';
import { documentAddress, documentTitle } from './documents.ts';
import { publishedDocuments } from './plan-documents.ts';
import { fixedFamily, type PageFamily, type PlannedPage } from './plan-types.ts';
import { folderPages } from './folder-addresses.ts';
import { planFolders } from './folder-pages.ts';

export const SITEMAP_MAX = 50_000;
export const NAV_ADDRESS = '/_service/nav' as Address;
export const NAV_FILE = '_service/nav.html';
/** The garden's full explorer page: every published folder and page, where a page's cut-short explorer leads. */
export const EXPLORER_ADDRESS = '/folder' as Address;
const LANGS = ['ar', 'en'] as const;
/**
 * The topic row holds the busiest topics, then a link to the search page, which lists them
 * all: every page carries the row, and a vault's 200 tags made it 17 KB of each page.
 */
export const TOPIC_ROW_MAX = 24;
/** Where the row's last link leads: the search page's list of every topic. */
export const ALL_TOPICS_ANCHOR = 's-browse-topics';

export interface SitemapView {
  file: string;
  entries: { loc: string; lastmod: string; alternates: { hreflang: string; href: string }[] }[];
  /** Addresses left out by the 50,000 cap (spec 8). */
  cut: number;
  max: number;
}

type Chip = { icon: string | null; label: string; url: string };

export interface NavView {
  home: { label: string; url: string };
  pinned: { icon: string; label: string; url: string }[];
  topics: Chip[];
  /** Set when the row is cut at TOPIC_ROW_MAX: the link to every topic. */
  allTopics: { label: string; url: string } | null;
  more: string;
  /** The garden's file explorer (explorer.ts), in place of the topic row. */
  explorer: ExplorerFolder | null;
  /** The full explorer page's link (EXPLORER_ADDRESS). */
  explorerPage: string;
  /** Set on the full explorer page's own view (pages/explorer.njk), not the fragment's. */
  page?: { canonical: string; metaTitle: string };
}

const DAY_MS = 86_400_000;

/**
 * The day a note's text last changed, as the sitemap's lastmod reads it: by the day, so a
 * note edited again the same day leaves the sitemap as it was (and unrendered).
 */
export const changedDay = (note: NoteRecord): number | null => (note.changedMs === null ? null : Math.floor(note.changedMs / DAY_MS) * DAY_MS);

const fileDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** The families of the sitemaps: the quick pass plans them again when a note's changed day moves. */
export const isSitemapFamily = (key: string): boolean => key.startsWith('sitemap:');

function sitemapPage(ctx: PageContext, lang: string | null): PlannedPage {
  const all = ctx.model.visible.filter((n) => lang === null || n.lang === lang);
  // The published bases and canvases (no language of their own: the whole site's sitemap), by their file's day.
  const documents = lang === null ? publishedDocuments(ctx).slice(0, SITEMAP_MAX - 1).map((p) => ({ address: documentAddress(p), day: fileDay(ctx.attachments.get(p)?.mtimeMs ?? 0) })) : [];
  // The front page counts as one address; the newest notes are kept.
  const kept = all.slice(0, SITEMAP_MAX - 1 - documents.length);
  const cut = all.length - kept.length;
  // The garden's folder pages (no language of their own either), by their newest note's date: in the room the notes leave.
  if (lang === null) documents.push(...folderPageDays(ctx).slice(0, SITEMAP_MAX - 1 - documents.length - kept.length));
  const file = lang ? `sitemap-${lang}.xml` : 'sitemap.xml';
  const alternatesOf = (n: NoteRecord) => {
    const twin = ctx.model.twins.get(n.path);
    return twin && twin.lang !== n.lang ? twinAlternates(ctx, n, twin) : [];
  };
  const lastmod = (ms: number) => new Date(ms).toISOString();
  const sig = [ctx.frameSig, ctx.frontPath ?? '', lang ?? '', cut, ...documents.map((d) => `${d.address}\u0001${d.day}`), ...kept.map((n) => `${n.address}\u0001${n.date.ms}\u0001${changedDay(n) ?? ''}\u0001${ctx.model.twins.get(n.path)?.address ?? ''}`)].join(
    '\u0000',
  );
  return {
    address: ('/sitemap.xml' + (lang ? `?lang=${lang}` : '')) as Address,
    file,
    kind: 'sitemap',
    type: 'xml',
    sig,
    view: (): SitemapView => ({
      file,
      entries: [
        { loc: ctx.absolute(FRONT_PAGE), lastmod: lastmod(all[0]?.date.ms ?? 0), alternates: [] },
        ...kept.filter((n) => n.path !== ctx.frontPath).map((n) => ({ loc: ctx.absolute(n.address), lastmod: lastmod(Math.max(n.date.ms, changedDay(n) ?? 0)), alternates: alternatesOf(n) })),
        ...documents.map((d) => ({ loc: ctx.absolute(d.address), lastmod: lastmod(d.day), alternates: [] })),
      ],
      cut,
      max: SITEMAP_MAX,
    }),
  };
}

/** Each folder page (folder-addresses.ts) with the date of the newest note under it, as the sitemap lists it. */
function folderPageDays(ctx: PageContext): { address: Address; day: number }[] {
  const pages = folderPages(ctx);
  if (pages.size === 0) return [];
  const newest = new Map<string, number>();
  for (const note of ctx.model.visible) {
    for (let at = note.folder; at !== ''; at = at.slice(0, Math.max(0, at.lastIndexOf('/')))) {
      if (pages.has(at)) newest.set(at, Math.max(newest.get(at) ?? 0, note.date.ms));
    }
  }
  return [...pages].map(([folder, address]) => ({ address, day: newest.get(folder) ?? 0 }));
}

/** The search page (CONTRACT §9): its form and results come alive in the browser; without scripts it lists the topics. */
export interface SearchPageView {
  file: string;
  canonical: string;
  metaTitle: string;
  metaDescription: string;
  topics: Chip[];
  /** The browser formats result counts in this locale (BLOG_LOCALE's digits). */
  numberLocale: string;
}

export const SEARCH_ADDRESS = '/search' as Address;

function searchPage(ctx: PageContext): PlannedPage {
  const { frame } = ctx;
  const view: SearchPageView = {
    file: outputFileOf(SEARCH_ADDRESS),
    canonical: ctx.absolute(SEARCH_ADDRESS),
    metaTitle: `${frame.strings.search} · ${frame.name}`,
    metaDescription: frame.tagline ?? frame.name,
    topics: [...pinnedChips(ctx), ...topicChips(ctx)],
    numberLocale: numberLocale(frame.lang, frame.blogLocale),
  };
  return { address: SEARCH_ADDRESS, file: view.file, kind: 'search', type: 'html', sig: ctx.frameSig + JSON.stringify(view), view: () => view };
}

/**
 * Every topic the navigation offers, busiest first (topics.ts); under Folders, the folders (spec D.4).
 * The row (`written`) holds the tags notes carry: a parent only nested tags make (`a` of `#a/b`)
 * is reached from its children's pages and the search page's list, and takes no place in the
 * row a tag someone wrote would have.
 */
function topicChips(ctx: PageContext, written = false): Chip[] {
  const { model } = ctx;
  if (model.mode === 'folders') return model.categories.filter((c) => !c.hidden).map((c) => ({ icon: c.icon, label: c.title, url: ctx.url(c.address) }));
  return model.topics.topics.filter((t) => !written || t.own > 0).map((t) => ({ icon: null, label: t.label, url: ctx.url(t.address) }));
}

/** The collections shown in the navigation; none under Folders, whose navigation is the folders alone. */
function pinnedChips(ctx: PageContext): { icon: string; label: string; url: string }[] {
  const { model, frame } = ctx;
  if (model.mode === 'folders' || !frame.collections.showInNav) return [];
  return model.collections.filter((c) => !c.hidden && c.members.length > 0).map((c) => ({ icon: c.icon, label: c.title, url: ctx.url(c.address) }));
}

export function navView(ctx: PageContext): NavView {
  const { frame } = ctx;
  const s = frame.strings;
  // The garden shows its explorer where the blog shows the topic row; the search page lists the topics either way.
  const explorer =
    frame.layout === 'default' ? explorerTree(ctx, publishedDocuments(ctx).map((p) => ({ path: p, title: documentTitle(p), url: ctx.url(documentAddress(p)) }))) : null;
  const topics = topicChips(ctx, true);
  return {
    home: { label: s.home, url: '/' },
    pinned: pinnedChips(ctx),
    topics: topics.slice(0, TOPIC_ROW_MAX),
    allTopics: topics.length > TOPIC_ROW_MAX ? { label: s.allTopics, url: `${ctx.url(SEARCH_ADDRESS)}#${ALL_TOPICS_ANCHOR}` } : null,
    more: s.more,
    explorer,
    explorerPage: ctx.url(EXPLORER_ADDRESS),
  };
}

/** The full explorer page: rendered again when the fragment is (the same view), once per build, not per page. */
function explorerPage(ctx: PageContext, nav: NavView, navSig: string): PlannedPage {
  const view: NavView = { ...nav, page: { canonical: ctx.absolute(EXPLORER_ADDRESS), metaTitle: `${ctx.frame.strings.explorerAll} · ${ctx.frame.name}` } };
  return { address: EXPLORER_ADDRESS, file: outputFileOf(EXPLORER_ADDRESS), kind: 'nav', type: 'html', sig: navSig + JSON.stringify(view.page), view: () => view };
}

/** A sitemap, planned again from the model as it is (the quick pass: isSitemapFamily). */
function sitemapFamily(ctx: PageContext, lang: string | null): PageFamily {
  return { key: lang ? `sitemap:${lang}` : 'sitemap:', pages: [sitemapPage(ctx, lang)], reads: [], replan: () => sitemapFamily(ctx, lang) };
}

export function planOutputs(ctx: PageContext): PageFamily[] {
  const out: PageFamily[] = [...planFeeds(ctx), sitemapFamily(ctx, null)];
  if (ctx.frame.languageFilter) {
    for (const lang of LANGS) out.push(sitemapFamily(ctx, lang));
  }
  const nav = navView(ctx);
  const navSig = ctx.frameSig + JSON.stringify(nav);
  out.push(
    fixedFamily('site', [
      { address: '/robots.txt' as Address, file: 'robots.txt', kind: 'robots', type: 'txt', sig: ctx.frameSig, view: () => ({}) },
      { address: '/404' as Address, file: '404.html', kind: 'notFound', type: 'html', sig: ctx.frameSig, view: () => ({}) },
      { address: NAV_ADDRESS, file: NAV_FILE, kind: 'nav', type: 'html', sig: navSig, view: () => nav },
      searchPage(ctx),
      ...(nav.explorer ? [explorerPage(ctx, nav, navSig)] : []),
    ]),
    ...planFolders(ctx, nav.explorer),
  );
  return out;
}
