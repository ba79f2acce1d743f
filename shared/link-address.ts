// A Markdown link's or picture's address as the vault reads it: the one expression for a
// Markdown link as written, what a web address looks like, and what names a vault file. The
// renderer, the note's facts, "Linked from" and a rename's rewrite all read links through it.

/** `[text](address "title")` and `![alt](address)`: groups 1 the `!`, 2 the text, 3 the address. A link's text holds no `[` and its address no space or `](`, as CommonMark reads one without <>. */
export const MARKDOWN_LINK = /(!?)\[([^[\]\n]*)\]\(((?:[^)\s\]]|\](?!\())+)(?:\s+"[^"\n]*")?\)/g;

/** An address with a scheme (`https:`, `mailto:`) or a host (`//cdn…`): nothing of the vault. */
export const WEB_ADDRESS = /^[a-z][a-z0-9+.-]*:|^\/\//i;

/** An address that names a file of the vault (a note or an attachment), not a web address, a place in the page or a site path. */
export const isVaultHref = (href: string): boolean => href !== '' && !WEB_ADDRESS.test(href) && !href.startsWith('#') && !href.startsWith('/');

/** Percent-decoded, or as written when it is not valid percent-encoding. */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
