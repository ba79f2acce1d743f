// Template filters: the per-request substitution markers (feed dates are the RSS plugin's
// dateToRfc822, in UTC: eleventy-site.ts).
import { markExplorer } from '../plan/explorer.ts';

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
  markExplorer: markExplorerFilter,
  editMarker,
  noticeMarker,
};
