// Template filters: dates for feeds (RFC-822 through the RSS plugin, always
// Gregorian and GMT) and sitemaps, and the per-request substitution markers.
import rss from '@11ty/eleventy-plugin-rss';

// The plugin is CommonJS: its date formatter is a property of what it exports.
const { dateToRfc822 } = rss as unknown as { dateToRfc822: (d: Date) => string };

const RFC822 = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} (?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d GMT$/;

const formatted = new Map<number, string>();

/** spec D.7: pubDate is RFC-822 Gregorian (and GMT) whatever the calendar setting. */
export function rfc822(ms: number): string {
  let out = formatted.get(ms);
  if (out === undefined) {
    const date = new Date(ms);
    const viaPlugin = dateToRfc822(date);
    // The plugin formats in the process's time zone and writes midnight as "24:00:00";
    // only a well-formed GMT answer is kept. It builds an Intl formatter per call: remember.
    out = RFC822.test(viaPlugin) ? viaPlugin : date.toUTCString();
    if (formatted.size > 100_000) formatted.clear();
    formatted.set(ms, out);
  }
  return out;
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

export const filters: Record<string, (...args: never[]) => unknown> = {
  rfc822,
  editMarker,
  noticeMarker,
};
