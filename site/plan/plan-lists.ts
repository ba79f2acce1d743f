// List pages: the home page (note or dashboard mode, spec D.3), topic pages,
// collection pages (D.5) and folder-mode category pages (2.8), paginated.
import { FRONT_PAGE, listPageAddress, outputFileOf, type Address } from '../../shared/model/addresses.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { tagLineage, type Topic } from '../../shared/model/topics.ts';
import { directionOf } from '../../shared/note/language.ts';
import { articleReads, articleSig, articleView } from './plan-articles.ts';
import type { CardView, PageContext } from './page-context.ts';
import { withLazySig, type PageFamily, type PlannedPage } from './plan-types.ts';

export const PAGE_SIZE = 24;
/** The family of the home's first page (its Most discussed row ranks every discussed post). */
export const MOST_DISCUSSED_FAMILY = `list:${FRONT_PAGE}`;
/** spec D.3: the Most discussed row of a dashboard home. */
export const MOST_DISCUSSED = 6;

interface BandCard {
  title: string;
  icon: string;
  url: string;
  countText: string;
  description: string | null;
}

export interface ListView {
  file: string;
  url: string;
  canonical: string;
  kind: 'home' | 'topic' | 'collection' | 'category';
  metaTitle: string;
  metaDescription: string;
  heading: { title: string; icon: string | null; description: string | null; countText: string; label: string } | null;
  intro: { title: string; html: string; lang: string; dir: string; needs: { math: boolean; mermaid: boolean } } | null;
  hero: { name: string; logo: string | null; tagline: string | null; background: string } | null;
  band: BandCard[] | null;
  /** spec D.3: posts ranked by approved comments (dashboard mode, once any exist). */
  discussed: CardView[] | null;
  cards: CardView[];
  grid: boolean;
  /** A topic's own feed (spec D.7), advertised in the page's head and heading. */
  feed: { url: string; title: string } | null;
  /** A topic's place among nested tags: the topics it nests in (outermost first) and those nested in it. */
  nesting: TopicNesting | null;
  /** Page numbers as visitors read them (BLOG_LOCALE's digits) beside the numbers themselves. */
  pager: { newer: string | null; older: string | null; page: number; pages: number; pageText: string; pagesText: string };
}

interface TopicNesting {
  trail: { label: string; url: string }[];
  children: { label: string; url: string; countText: string; countLabel: string }[];
}

interface ListSpec {
  base: Address;
  kind: ListView['kind'];
  notes: NoteRecord[];
  heading: ListView['heading'];
  metaTitle: string;
  metaDescription: string;
  /** Notes whose text every page of the list shows (the home note's excerpt as the meta description). */
  reads?: NoteRecord[];
  /** Extra content of the first page (intro, hero, band, Most discussed), its signature and the notes whose text it shows. */
  first?: { view: () => Pick<ListView, 'intro' | 'hero' | 'band' | 'discussed'>; sig: () => string; reads: NoteRecord[] };
  grid: boolean;
  feed?: ListView['feed'];
  nesting?: TopicNesting | null;
}

function countText(ctx: PageContext, n: number): string {
  return ctx.frame.strings.publishedNotes(ctx.fmt.number(n), n);
}



/** Page `n` of a list, as its own family: it shows the text (excerpts) of its cards' notes. */
function listFamily(ctx: PageContext, spec: ListSpec, n: number, specOf: () => ListSpec): PageFamily {
  const pages = Math.max(1, Math.ceil(spec.notes.length / PAGE_SIZE));
  const headSig = JSON.stringify([spec.kind, spec.heading, spec.metaTitle, spec.metaDescription, spec.grid, spec.feed ?? null, spec.nesting ?? null]);
  const address = listPageAddress(spec.base, n);
  const items = spec.notes.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE);
  const first = n === 1 ? spec.first : undefined;
  const pager = {
    newer: n > 1 ? ctx.url(listPageAddress(spec.base, n - 1)) : null,
    older: n < pages ? ctx.url(listPageAddress(spec.base, n + 1)) : null,
    page: n,
    pages,
    pageText: ctx.fmt.number(n),
    pagesText: ctx.fmt.number(pages),
  };
  const sig = () => {
    // The records themselves (and the world) are the dependencies: a changed note is a new record.
    // A card shows its approved comments: a page changes with their counts (and only then).
    const firstSig = first?.sig() ?? '';
    return ctx.memory.listSigs.get(ctx.memory.keyOf(address), [...ctx.world, headSig, firstSig, n, pages, countsOf(ctx, items), ...items], () =>
      [ctx.frameSig, headSig, firstSig, n, pages, countsOf(ctx, items), ...items.map((i) => ctx.cardSig(i))].join('\u0000'),
    );
  };
  const page: PlannedPage = withLazySig({
    address,
    file: outputFileOf(address),
    kind: 'list',
    type: 'html',
    view: (): ListView => ({
      file: outputFileOf(address),
      url: ctx.url(address),
      canonical: ctx.absolute(address),
      kind: spec.kind,
      metaTitle: spec.metaTitle,
      metaDescription: spec.metaDescription,
      heading: spec.heading,
      intro: null,
      hero: null,
      band: null,
      discussed: null,
      ...(first ? first.view() : {}),
      cards: items.map((i) => ctx.card(i)),
      grid: spec.grid,
      feed: spec.feed ?? null,
      nesting: spec.nesting ?? null,
      pager,
    }),
  }, sig);
  const reads = [...items, ...(spec.reads ?? []), ...(first?.reads ?? [])];
  return { key: `list:${address}`, pages: [page], reads, replan: () => listFamily(ctx, specOf(), n, specOf) };
}

/** Every page of a list; `specOf` makes the list's spec again when one page is re-planned. */
function paginate(ctx: PageContext, specOf: () => ListSpec): PageFamily[] {
  const spec = specOf();
  const count = Math.max(1, Math.ceil(spec.notes.length / PAGE_SIZE));
  const out: PageFamily[] = [];
  for (let n = 1; n <= count; n++) out.push(listFamily(ctx, spec, n, specOf));
  return out;
}

/** The band of collection (or category) cards above the posts (spec D.5). */
function band(ctx: PageContext): { cards: BandCard[]; sig: string } | null {
  const { frame, model } = ctx;
  if (!frame.collections.showOnHome) return null;
  const groups = model.mode === 'folders' ? model.categories : model.collections;
  const cards = groups
    .filter((g) => !g.hidden)
    .map((g) => ({ title: g.title, icon: g.icon, url: ctx.url(g.address), countText: countText(ctx, g.members.length), description: g.description }));
  if (cards.length === 0) return null;
  return { cards, sig: JSON.stringify(cards) };
}

/** The cards' comment counts, as one string (empty while comments are off). */
function countsOf(ctx: PageContext, items: NoteRecord[]): string {
  return ctx.discussion ? items.map((i) => ctx.commentCount(i)).join(',') : '';
}

/**
 * Text for a CSS string in double quotes: a quote, a backslash or a line break in it would
 * end the string (a banner arriving with the vault's settings once covered the whole home
 * page with `");position:fixed;inset:0`). Each is written as its hex escape.
 */
export const cssString = (text: string): string => text.replace(/["\\\n\r\f]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `);

function homeSpec(ctx: PageContext): ListSpec {
  const { frame, model } = ctx;
  const home = model.homeNote;
  const bandCards = band(ctx);
  const dashboard = frame.homeMode === 'dashboard';
  const heroBackground = ctx.imageUrl(frame.banner, null);
  const logo = ctx.imageUrl(frame.logo, null);
  const hero = dashboard
    ? { name: frame.name, logo, tagline: frame.tagline, background: heroBackground ? `url("${cssString(heroBackground)}") center / cover` : frame.gradient }
    : null;
  const intro = !dashboard && home ? home : null;
  const discussed = dashboard ? ctx.mostDiscussed(MOST_DISCUSSED) : [];
  return {
    base: FRONT_PAGE,
    kind: 'home',
    notes: model.posts,
    heading: null,
    metaTitle: frame.name,
    metaDescription: frame.tagline ?? (home ? home.excerpt : frame.name),
    reads: !frame.tagline && home ? [home] : [],
    grid: dashboard,
    first: {
      sig: () =>
        [
          JSON.stringify(hero),
          bandCards?.sig ?? '',
          intro ? `${intro.hash}\u0001${ctx.bodies.bodySig(intro)}` : '',
          discussed.map((p) => `${ctx.cardSig(p)}\u0001${ctx.commentCount(p)}`).join('\u0002'),
        ].join('\u0000'),
      reads: [...(intro ? articleReads(ctx, intro) : []), ...discussed],
      view: () => ({
        hero,
        band: bandCards?.cards ?? null,
        discussed: discussed.length ? discussed.map((p) => ctx.card(p)) : null,
        intro: intro ? { title: intro.title, html: ctx.bodies.html(intro), lang: intro.lang, dir: directionOf(intro.lang), needs: ctx.bodies.needs(intro) } : null,
      }),
    },
  };
}

/** spec D.3: in the default app layout `/` opens the home note; the home rows have no effect. */
function planHome(ctx: PageContext): PageFamily[] {
  const { frame, model } = ctx;
  if (frame.layout === 'default' && model.homeNote) return [homeNoteFamily(ctx)];
  return paginate(ctx, () => homeSpec(ctx));
}

function homeNoteFamily(ctx: PageContext): PageFamily {
  const note = ctx.model.homeNote!;
  return {
    key: 'home-note',
    pages: [
      withLazySig(
        { address: FRONT_PAGE, file: outputFileOf(FRONT_PAGE), kind: 'article', type: 'html', view: () => articleView(ctx, note, FRONT_PAGE) },
        () => 'home-note\u0000' + articleSig(ctx, note),
      ),
    ],
    reads: articleReads(ctx, note),
    replan: () => homeNoteFamily(ctx),
  };
}

/** A nested tag's way up (each topic it nests in) and the topics nested one level in it; null for a tag with neither. */
function nestingOf(ctx: PageContext, topic: Topic): TopicNesting | null {
  const { byKey } = ctx.model.topics;
  const trail = tagLineage(topic.key)
    .slice(0, -1)
    .flatMap((key) => {
      const above = byKey.get(key);
      return above ? [{ label: above.label, url: ctx.url(above.address) }] : [];
    });
  if (trail.length === 0 && topic.children.length === 0) return null;
  const children = topic.children.map((c) => ({ label: c.label, url: ctx.url(c.address), countText: ctx.fmt.number(c.posts.length), countLabel: countText(ctx, c.posts.length) }));
  return { trail, children };
}

export function planLists(ctx: PageContext): PageFamily[] {
  const { model, frame } = ctx;
  const s = frame.strings;
  const out = planHome(ctx);
  for (const topic of model.topics.topics) {
    out.push(
      ...paginate(ctx, () => ({
        base: topic.address,
        kind: 'topic',
        notes: topic.posts,
        heading: { title: topic.label, icon: '#', description: null, countText: countText(ctx, topic.posts.length), label: s.topic },
        metaTitle: `${topic.label} · ${frame.name}`,
        metaDescription: `${s.topic}: ${topic.label}`,
        grid: frame.homeMode === 'dashboard',
        feed: { url: ctx.absolute(`${topic.address}/feed.xml` as Address), title: `${topic.label} · ${frame.name}` },
        nesting: nestingOf(ctx, topic),
      })),
    );
  }
  // spec 2.8: a hidden collection or category is unreachable by visitors.
  const groups = model.mode === 'folders' ? model.categories : model.collections;
  for (const group of groups) {
    if (group.hidden) continue;
    out.push(
      ...paginate(ctx, () => ({
        base: group.address,
        kind: model.mode === 'folders' ? 'category' : 'collection',
        notes: group.members,
        heading: {
          title: group.title,
          icon: group.icon,
          description: group.description,
          countText: countText(ctx, group.members.length),
          label: model.mode === 'folders' ? s.category : s.collection,
        },
        metaTitle: `${group.title} · ${frame.name}`,
        metaDescription: group.description ?? group.title,
        grid: frame.homeMode === 'dashboard',
      })),
    );
  }
  return out;
}
