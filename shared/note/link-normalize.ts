// markdown-it normalizes every link's address (mdurl's parse and format, punycode for the
// host, then percent-encoding) and every bare URL's shown text (the same, decoded back).
// A vault's links are mostly plain web addresses, for which both give back the address as
// written: those are answered at once, every other goes through markdown-it's own
// functions, so no answer changes (test/unit/link-normalize.test.ts compares them).
import type MarkdownIt from 'markdown-it';

/**
 * An http(s) address of ASCII letters, digits and the characters percent-encoding keeps: a
 * host of plain labels (none punycode, so nothing to convert either way), an optional port,
 * and a path, query and fragment with no `%`, space, bracket or quote to encode or decode.
 */
const PLAIN_URL = /^https?:\/\/(?!xn--)[a-z0-9-]{1,63}(?:\.(?!xn--)[a-z0-9-]{1,63}){0,8}(?::\d{1,5})?(?:[/?#][\w\-.~!$&'()*+,;=:@/?#]*)?$/i;

/** Takes markdown-it's link normalization off the addresses it would give back unchanged. */
export function guardLinkNormalize(md: MarkdownIt): void {
  const normalizeLink = md.normalizeLink.bind(md);
  const normalizeLinkText = md.normalizeLinkText.bind(md);
  md.normalizeLink = (url: string) => (url.length <= 2048 && PLAIN_URL.test(url) ? url : normalizeLink(url));
  md.normalizeLinkText = (url: string) => (url.length <= 2048 && PLAIN_URL.test(url) ? url : normalizeLinkText(url));
}
