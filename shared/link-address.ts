// A Markdown link's or picture's address as the vault reads it: the one expression for a
// Markdown link as written, what a web address looks like, and what names a vault file. The
// renderer, the note's facts, "Linked from" and a rename's rewrite all read links through it.

/**
 * `[text](address "title")`, `![alt](address)` and `[text](<an address>)`: groups 1 the `!`,
 * 2 the text, 3 an address written in <> (without them), 4 one written bare. A link's text
 * may hold pairs of brackets (`[see [1]](…)`) and pictures (`[![alt](pic.png)](…)`), never
 * a link (the inner one is the link then); a bare address holds no space or `](`, one in <>
 * no `<`, `>` or line end, as CommonMark reads them.
 */
export const MARKDOWN_LINK = /(!?)\[((?:[^[\]\n]|!\[[^[\]\n]*\]\([^()\n]*\)|\[[^[\]\n]*\](?!\())*)\]\((?:<([^<>\n]*)>|((?:[^)\s\]<]|\](?!\())(?:[^)\s\]]|\](?!\())*))(?:\s+"[^"\n]*")?\)/g;

/**
 * A reference definition (`[ref]: Target.md "title"`, used as `[text][ref]`), on its own line,
 * perhaps in a quote: groups 1 what stands before the `[`, 2 the label, 3 an address in <>, 4 a
 * bare one. `[^1]:` is a footnote, not a definition. Whether the line is one (not the
 * continuation of a paragraph, not code) the parser says: link-places.ts.
 */
export const REFERENCE_DEFINITION = /^((?:[ \t]*>)*[ \t]*)\[([^[\]\n^][^[\]\n]*)\]:[ \t]*(?:<([^<>\n]*)>|([^\s<]\S*))(?=\s|$)/gm;

/** An address with a scheme (`https:`, `mailto:`) or a host (`//cdn…`): nothing of the vault. */
export const WEB_ADDRESS = /^[a-z][a-z0-9+.-]*:|^\/\//i;

/** An address that names a file of the vault (a note or an attachment), not a web address, a place in the page or a site path. */
export const isVaultHref = (href: string): boolean =>
  href !== '' && !WEB_ADDRESS.test(href) && !href.startsWith('#') && (!href.startsWith('/') || ROOTED_NOTE.test(href));

/**
 * A path from the vault's root to a Markdown note (`/compendium/items/azurite.md`, as
 * ttrpg-convert-cli links): the vault's, as Obsidian reads it; any other `/…` is the site's own path.
 */
const ROOTED_NOTE = /^\/[^?#]{0,2000}\.(?:md|markdown)(?:[?#]|$)/i;

/** Percent-decoded, or as written when it is not valid percent-encoding. */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
