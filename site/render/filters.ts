// Template filters: feed dates (the RSS plugin's dateToRfc822's text, in UTC) and the per-request
// substitution markers.
import { dateToRfc822 } from '@11ty/eleventy-plugin-rss';
import { explorerFor } from '../plan/explorer-view.ts';
import { languageFeedFile } from '../plan/plan-feeds.ts';

/**
 * spec D.7: a feed's pubDate is RFC 822, Gregorian, in GMT whatever the server's time zone,
 * as the RSS plugin's dateToRfc822 writes it with the zone named (`Mon, 15 Jan 2024 12:00:00
 * +0000`). The plugin makes an Intl formatter a call, about 30 KB of ICU memory V8 does not
 * count, so thousands of feed items grew the builder by 130 MB
 * (docs/decisions/feed-dates.md): years 1000-9999 take the same text from the Date itself
 * (test/unit/feed-dates.test.ts holds the two equal), others the plugin's.
 */
export function feedDate(ms: number): string {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  return year >= 1000 && year <= 9999 ? date.toUTCString().replace(/GMT$/, '+0000') : dateToRfc822(ms, 'UTC');
}

/** Where the server puts the Edit link for a signed-in admin (CONTRACT §6). */
export function editMarker(notePath: string, label = 'Edit'): string {
  return `<!--service:edit:${encodeURIComponent(notePath)}:${encodeURIComponent(label)}-->`;
}

/**
 * Where the server puts the notice a visitor's own comment earns (CONTRACT §8: the form
 * without a script is answered 303 back to the article, `?comment=pending#comments`).
 */
export function noticeMarker(pending: string, approved: string): string {
  return `<!--service:notice:${encodeURIComponent(pending)}:${encodeURIComponent(approved)}-->`;
}

/** A snapshot page's explorer: its cut of the shared fragment, this page marked (the server does the same per page). */
function explorerFilter(fragment: string, here: string | null): string {
  return explorerFor(fragment, here ?? '');
}

/**
 * A feed's address in one language (the language filter): `?lang=ar` on the server; a static
 * host answers a file, `feed-ar.xml` (the file plan-feeds.ts writes).
 */
export function langFeed(url: string, lang: string, snapshot: unknown): string {
  return snapshot ? languageFeedFile(url, lang) : `${url}?lang=${lang}`;
}

export const filters: Record<string, (...args: never[]) => unknown> = {
  feedDate,
  explorerFor: explorerFilter,
  langFeed,
  editMarker,
  noticeMarker,
};
