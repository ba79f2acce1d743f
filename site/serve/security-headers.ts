// CONTRACT §11: public pages carry a Content-Security-Policy under which no inline
// script runs. The public site shares its origin with the admin app, so the sanitiser
// (shared/note/sanitize.ts) is the first wall and this policy the second: only the
// site's own script files run on a page. Attachments are the vault's files as they are
// (an .html, an .svg): they are served sandboxed, so opened on their own they run
// nothing either, and a script file is never served as a script.

/** The policy of every public HTML page. */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // style attributes: the cards' gradients, table alignment, KaTeX, a note's <span style>.
  "style-src 'self' 'unsafe-inline' https:",
  'img-src * data: blob:',
  'media-src * data: blob:',
  "font-src 'self' https: data:",
  // iframes of https videos (the sanitiser keeps no other) and the site's own PDFs (![[manual.pdf]]).
  "frame-src 'self' https:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  // The admin's "Preview as visitor" frames the site; nobody else may.
  "frame-ancestors 'self'",
].join('; ');

/**
 * Powerful features no public page uses, refused to the page and every frame in it: a
 * hostile note's frame cannot have the browser ask a reader for them in this site's name
 * (the sanitiser keeps a frame's `allow` to video features too; a static snapshot has
 * only that).
 */
export const PAGE_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'display-capture', 'usb', 'serial', 'hid', 'bluetooth', 'payment', 'midi']
  .map((feature) => `${feature}=()`)
  .join(', ');

/** Headers of a public HTML page, beside its content type and caching. */
export function pageSecurityHeaders(): [string, string][] {
  return [
    ['content-security-policy', PAGE_CSP],
    ['permissions-policy', PAGE_PERMISSIONS],
  ];
}

/** Passive media that cannot run script when opened on their own (and a PDF viewer refuses a sandbox). */
const PASSIVE = /\.(png|jpe?g|gif|webp|avif|bmp|ico|mp3|ogg|oga|wav|m4a|flac|aac|opus|mp4|m4v|webm|mov|ogv|pdf|woff2?|ttf|otf)$/i;

/** Images, audio, video, PDFs and fonts: a browser opening one on its own runs nothing. */
export const isPassiveMedia = (file: string): boolean => PASSIVE.test(file);
const SCRIPT = /\.(m?js|cjs|jsx|ts|tsx|wasm)$/i;

/**
 * Headers for an attachment at `file`: anything that is not passive media opens in a
 * sandbox with no script (its own origin, so it cannot reach /api/*), and a script file
 * is plain text (with nosniff, no page can load it as a script).
 */
export function attachmentSecurityHeaders(file: string): [string, string][] {
  const headers: [string, string][] = [['x-content-type-options', 'nosniff']];
  if (SCRIPT.test(file)) headers.push(['content-type', 'text/plain; charset=utf-8']);
  if (!PASSIVE.test(file)) {
    headers.push(['content-security-policy', "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox"]);
  }
  return headers;
}
