// A static host sends a file as it is, with none of our headers. The live server sends an
// attachment that could run script (an .html, an .svg) sandboxed (site/serve/security-headers.ts);
// opened from a static host at the site's own address it would run as the site. So the
// snapshot leaves out markup files, and any SVG that holds anything script-like: found in
// the raw text, conservatively (an SVG with a false alarm is left out too, and named).

/** Files a browser opens as a document that can run script. */
const MARKUP = /\.(html?|xhtml?|xht|shtml|xml|xsl|xslt|mht|mhtml|svgz)$/i;
const SVG = /\.svg$/i;

/** Numeric character references decoded, the one way an SVG can spell `javascript:` otherwise. */
function decodeNumericRefs(text: string): string {
  return text.replace(/&#(x[0-9a-f]+|[0-9]+);?/gi, (_, n: string) => {
    const code = n[0] === 'x' || n[0] === 'X' ? parseInt(n.slice(1), 16) : parseInt(n, 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

const SCRIPT_ELEMENT = /<\s*([\w.-]+:)?(script|handler|listener|iframe|frame|embed|object|portal|meta|base)\b/i;
const HANDLER_ATTRIBUTE = /\son[a-z]+\s*=/i;
const ACTIVE_URL = /(javascript|vbscript|livescript):|data:(?!image\/(png|jpe?g|gif|webp|avif)[;,])/i;
/** Entity declarations (a DTD can spell any text) and an XSLT stylesheet (it can write script). */
const XML_TRICKS = /<!ENTITY|<\?xml-stylesheet/i;

/** Why an SVG's text could run script, or null when nothing in it looks like it could. */
export function activeSvgReason(text: string): string | null {
  if (XML_TRICKS.test(text)) return 'it declares entities or an XSLT stylesheet';
  if (SCRIPT_ELEMENT.test(text)) return 'it holds a script, a frame or an embedded object';
  if (HANDLER_ATTRIBUTE.test(text)) return 'it holds an event handler (an on… attribute)';
  // Whitespace goes first: a browser ignores tabs and line breaks inside a URL's scheme.
  if (ACTIVE_URL.test(decodeNumericRefs(text).replace(/[\u0000-\u0020]/g, ''))) return 'it holds a javascript: or data: link';
  return null;
}

/**
 * Why the attachment at vault path `file` stays out of a static snapshot, or null to copy
 * it. `read` gives its bytes (asked only for an SVG).
 */
export function snapshotAttachmentRefusal(file: string, read: () => Buffer): string | null {
  if (MARKUP.test(file)) return 'a static host would open it as a page of the site, scripts and all';
  if (!SVG.test(file)) return null;
  const reason = activeSvgReason(read().toString('utf8'));
  return reason ? `${reason}, which a static host would run as the site` : null;
}
