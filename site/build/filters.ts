// Template filters: dates for feeds (RFC-822, always Gregorian and GMT) and sitemaps, and
// the per-request substitution markers.
import { markExplorer } from './explorer.ts';

/**
 * spec D.7: pubDate is RFC-822 Gregorian (and GMT) whatever the calendar setting, in the
 * RFC 1123 form every feed reader takes (`Mon, 15 Jan 2024 12:00:00 GMT`). Not the RSS
 * plugin's `dateToRfc822`: it formats in the process's time zone, and a zone Intl names
 * `GMT+1` (Europe/Berlin, say) came out as the local time labelled GMT, an hour off.
 */
export function rfc822(ms: number): string {
  return new Date(ms).toUTCString();
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

/** A snapshot page's explorer: the shared fragment with this page marked (the server does the same per page). */
function markExplorerFilter(fragment: string, here: string | null): string {
  return here ? markExplorer(fragment, here) : fragment;
}

export const filters: Record<string, (...args: never[]) => unknown> = {
  rfc822,
  markExplorer: markExplorerFilter,
  editMarker,
  noticeMarker,
};
