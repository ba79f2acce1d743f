// A vault name or address inside a sentence keeps its own direction (a first strong isolate,
// FSI … PDI): in an Arabic sentence `_img/photo.png` reads as written, not `img/photo.png_`.
// t() isolates its name placeholders itself; a sentence put together by hand uses this.
export const isolated = (s: string | undefined): string => (s === undefined ? '' : `\u2068${s}\u2069`);

/** A line of Markdown with each link (`[[…]]`, `[…](…)`) isolated: an English link in an Arabic line keeps its brackets and punctuation where they are written. */
export const isolatedLinks = (line: string): string => line.replace(/\[\[[^\]\n]*\]\]|\[[^\]\n]*\]\([^)\s]*\)/g, (link) => isolated(link));
