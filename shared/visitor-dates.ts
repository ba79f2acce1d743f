// How a date a visitor reads is written (spec D.1, CONTRACT §10): the day, the month's
// name and the year, in UTC, in each calendar the site shows, joined by ` / `. One place
// for the build's formatter (site/plan/i18n.ts) and the page's script, which writes the
// date of a comment shown just after it was posted (site/client/comments.ts).

export const DATE_OPTIONS: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' };

/** A date formatter for these locales (site/plan/i18n.ts `dateLocales`: one per calendar). */
export function dateFormatter(locales: string[]): (ms: number) => string {
  const formats = locales.map((locale) => new Intl.DateTimeFormat(locale, DATE_OPTIONS));
  return (ms) => formats.map((f) => f.format(new Date(ms))).join(' / ');
}
