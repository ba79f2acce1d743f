// What the templates render on this pass: the frame, and only the pages whose
// signature changed (subset rendering). The templates read it as `vault`
// (eleventy-site.ts).
import type { SiteFrame } from '../plan/frame.ts';
import type { ArticleView } from '../plan/plan-articles.ts';
import type { ListView } from '../plan/plan-lists.ts';
import type { FolderView } from '../plan/folder-pages.ts';
import type { FeedView } from '../plan/plan-feeds.ts';
import type { NavView, SearchPageView, SitemapView } from '../plan/plan-outputs.ts';

export interface RenderData {
  site:
    | (SiteFrame & {
        assets: { css: string; js: string; theme: string; search: string; katex: string; mermaid: string };
        logoUrl: string | null;
        /** The vault's publish.css, loaded after the blog's stylesheet, when it has one. */
        publishCss: string | null;
        /** A static snapshot's pages: what the server fills in per request, rendered in place; null in the server. */
        snapshot: SnapshotParts | null;
      })
    | null;
  articles: ArticleView[];
  lists: ListView[];
  folders: FolderView[];
  feeds: FeedView[];
  sitemaps: SitemapView[];
  robots: { file: string }[];
  notFound: { file: string }[];
  nav: (NavView & { file: string })[];
  search: SearchPageView[];
}

/** What a static snapshot's pages hold where the server's pages hold markers (site/render/snapshot-page.ts). */
export interface SnapshotParts {
  /** The topic row (the nav page, rendered first). */
  nav: string;
  /** The page policy as a <meta> element, right after the charset. */
  policy: string;
  /** The link to the designer's custom.css (site/plan/custom-css.ts), or nothing. */
  style: string;
}

/**
 * The views as the templates get them: frozen, so Eleventy hands them over as they are.
 * Each page's data is a proxy over the global data, and a plain object read through it comes
 * back wrapped in a new proxy each time (a page reads `s.strings` a few dozen times).
 * Eleventy passes a frozen object through unwrapped. The site's frame is copied before it
 * is frozen: the plan keeps using its own.
 */
export function readOnlyViews(data: RenderData): RenderData {
  return Object.freeze({ ...data, site: frozenCopy(data.site) });
}

function frozenCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) copy[key] = frozenCopy(v);
  return Object.freeze(copy) as T;
}

export function emptyRender(): RenderData {
  return { site: null, articles: [], lists: [], folders: [], feeds: [], sitemaps: [], robots: [], notFound: [], nav: [], search: [] };
}
