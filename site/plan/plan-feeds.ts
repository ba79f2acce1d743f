// The feeds (spec D.7): /feed.xml, and one per topic at /topic/<tag>/feed.xml, each
// RSS 2.0 with the newest posts; with the language filter on, `?lang=ar`/`?lang=en`
// variants of each. Items carry the excerpt, and with Feed content set to the full
// article its HTML too (links made absolute; private comments never reach it, as
// they never reach the note's public Markdown).
import type { Address } from '../../shared/model/addresses.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { mapSrcset } from '../../shared/note/picture.ts';
import type { PageContext } from './page-context.ts';
import { articleReads } from './plan-articles.ts';
import type { PageFamily, PlannedPage } from './plan-types.ts';

export const FEED_SIZE = 50;
const LANGS = ['ar', 'en'] as const;

export interface FeedView {
  file: string;
  title: string;
  link: string;
  self: string;
  description: string;
  language: string;
  lastBuildMs: number;
  /** The items carry the whole article (`content:encoded`). */
  full: boolean;
  items: { title: string; link: string; guid: string; pubDateMs: number; description: string; content: string | null; categories: string[] }[];
}

interface FeedSpec {
  /** The feed's own address without `?lang=` (`/feed.xml`, `/topic/x/feed.xml`). */
  address: Address;
  posts: NoteRecord[];
  title: string;
  /** The page the feed stands for. */
  link: Address;
  description: string;
}

/** A feed's address for a language: the filter's variants are queries of the same address. */
export function feedKey(address: string, lang: string | null): string {
  return lang ? `${address}?lang=${lang}` : address;
}

/** A feed's file (or address) in one language: `feed.xml` → `feed-ar.xml`, what a static host serves for `?lang=ar`. */
export const languageFeedFile = (file: string, lang: string): string => file.replace(/\.xml$/, `-${lang}.xml`);

/** `/feed.xml` → `feed.xml`, `/topic/x/feed.xml?lang=ar` → `topic/x/feed-ar.xml`. */
function feedFile(address: Address, lang: string | null): string {
  const file = address.slice(1);
  return lang ? languageFeedFile(file, lang) : file;
}

const ATTRIBUTE = /(\s(?:href|src|poster)=")([^"]*)"/g;
// A srcset's candidates, each a URL and its width or density: a reader offered the image's smaller copies fetches one.
const SRCSET = /(\ssrcset=")([^"]*)"/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * An article's HTML as a feed reader needs it: every link and image absolute, the smaller
 * copies a srcset offers too (a reader has no page to resolve `/Posts/A` or `#fn1` against).
 * `base` is the site's absolute base (the per-request token in built files), `page` the
 * article's encoded address.
 */
export function absoluteLinks(html: string, base: string, page: string): string {
  const absolute = (value: string): string => {
    if (value === '' || SCHEME.test(value) || value.startsWith('//')) return value;
    if (value.startsWith('#')) return `${base}${page}${value}`;
    if (value.startsWith('/')) return `${base}${value}`;
    // A relative path, as raw HTML may carry one: resolved against the article's address.
    try {
      const resolved = new URL(value.replaceAll('&amp;', '&'), `http://site${page}`);
      return `${base}${resolved.pathname}${resolved.search.replaceAll('&', '&amp;')}${resolved.hash.replaceAll('&', '&amp;')}`;
    } catch {
      return value;
    }
  };
  return html
    .replace(ATTRIBUTE, (_whole, open: string, value: string) => `${open}${absolute(value)}"`)
    .replace(SRCSET, (_whole, open: string, list: string) => `${open}${mapSrcset(list, absolute)}"`);
}

// Characters XML 1.0 does not allow anywhere, escaped or not: C0 controls but tab, newline
// and carriage return, lone surrogates, U+FFFE and U+FFFF. A backspace pasted from a PDF
// made the whole feed unreadable to every feed reader.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/gu;

/** Text as a feed may carry it: what XML cannot hold is left out. */
export const xmlText = (text: string): string => text.replace(NOT_XML, '');

function feedPage(ctx: PageContext, spec: FeedSpec, lang: string | null): PlannedPage {
  const { frame } = ctx;
  const full = frame.feedContent === 'full';
  const posts = lang === null ? spec.posts.slice(0, FEED_SIZE) : spec.posts.filter((p) => p.lang === lang).slice(0, FEED_SIZE);
  const file = feedFile(spec.address, lang);
  const key = feedKey(spec.address, lang);
  const view = (): FeedView => ({
    file,
    title: xmlText(spec.title),
    link: ctx.absolute(spec.link),
    self: frame.base + ctx.url(spec.address) + (lang ? `?lang=${lang}` : ''),
    description: xmlText(spec.description),
    // A language's own feed speaks it; the others, the site's.
    language: lang ?? frame.blogLocale,
    lastBuildMs: posts[0]?.date.ms ?? 0,
    full,
    items: posts.map((p) => ({
      title: xmlText(p.title),
      link: ctx.absolute(p.address),
      guid: ctx.feedId(p),
      pubDateMs: p.date.ms,
      description: xmlText(p.excerpt),
      content: full ? xmlText(absoluteLinks(ctx.bodies.feedHtml(p), frame.base, ctx.url(p.address))) : null,
      categories: ctx.chips(p).map((c) => xmlText(c.label)),
    })),
  });
  // The full article depends on what its links and embeds resolve to, beyond its card.
  const itemSig = full ? (p: NoteRecord) => `${ctx.cardSig(p)}\u0001${ctx.bodies.bodySig(p)}` : (p: NoteRecord) => ctx.cardSig(p);
  const make = () => [ctx.frameSig, key, spec.title, spec.description, ...posts.map(itemSig)].join('\u0000');
  // Excerpts: the posts themselves (and the world) are the dependencies, a changed note being a new
  // record. Whole articles also depend on the notes they link to and embed: made every time.
  const sig = full ? make() : ctx.memory.feedSigs.get(ctx.memory.keyOf(key), [...ctx.world, spec.title, spec.description, ...posts], make);
  return { address: key as Address, file, kind: 'feed', type: 'xml', sig, view };
}

/**
 * A feed as a family: it shows its posts' excerpts, and with Feed content set to the full
 * article, what each article shows of other notes too.
 */
function feedFamily(ctx: PageContext, spec: FeedSpec, lang: string | null): PageFamily {
  const page = feedPage(ctx, spec, lang);
  const posts = lang === null ? spec.posts.slice(0, FEED_SIZE) : spec.posts.filter((p) => p.lang === lang).slice(0, FEED_SIZE);
  const reads = ctx.frame.feedContent === 'full' ? posts.flatMap((p) => articleReads(ctx, p)) : posts;
  return { key: `feed:${page.address}`, pages: [page], reads, replan: () => feedFamily(ctx, spec, lang) };
}

/** The site's feed and every topic's, each with its language variants when the filter is on. */
export function planFeeds(ctx: PageContext): PageFamily[] {
  const { frame, model } = ctx;
  const specs: FeedSpec[] = [
    { address: '/feed.xml' as Address, posts: model.posts, title: frame.name, link: '/' as Address, description: frame.tagline ?? frame.name },
  ];
  for (const topic of model.topics.topics) {
    specs.push({
      address: `${topic.address}/feed.xml` as Address,
      posts: topic.posts,
      title: `${topic.label} · ${frame.name}`,
      link: topic.address,
      description: `${frame.strings.topic}: ${topic.label}`,
    });
  }
  const out: PageFamily[] = [];
  for (const spec of specs) {
    out.push(feedFamily(ctx, spec, null));
    if (frame.languageFilter) for (const lang of LANGS) out.push(feedFamily(ctx, spec, lang));
  }
  return out;
}
