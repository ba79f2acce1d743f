// CONTRACT §7, raw HTML in a note: passed through a sanitiser, so a published note can
// show what Obsidian users write (details/summary, kbd, sup/sub, tables, sized images,
// style and class on any element, app links such as zotero://, https video iframes, audio/video) but runs nothing: no
// script, no event-handler attributes, no `javascript:`/`data:` URLs outside images,
// no `srcdoc`, iframes only with an absolute https: source. Everything our own renderer
// emits (callouts, footnotes, task lists, math) stays allowed, so a note with raw HTML
// renders like one without.
import sanitizeHtml from 'sanitize-html';
import { followableScheme } from './unsafe-links.ts';

const MATHML = [
  'math', 'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msup', 'msub', 'msubsup',
  'mfrac', 'msqrt', 'mroot', 'mover', 'munder', 'munderover', 'mtable', 'mtr', 'mtd', 'mstyle', 'mpadded', 'mphantom', 'menclose',
];
// What KaTeX draws with SVG (roots, arrows, braces): shapes only, nothing that links or scripts.
const SVG = ['svg', 'path', 'g', 'line', 'rect'];

const TAGS = [
  ...sanitizeHtml.defaults.allowedTags, // headings, lists, tables, code, kbd, sup/sub, mark, ruby…
  // label: a task's box and its words (obsidian/task-lists.ts); with no `for`, it names only what it holds.
  'img', 'picture', 'details', 'summary', 'iframe', 'audio', 'video', 'source', 'track', 'input', 'label', 'del', 'ins', 'center', 'font',
  // Old presentational elements Obsidian still shows (a docs vault's `<tt>space</tt>` lost its monospace).
  'tt', 'big', 'strike', 'acronym',
  // A project note's or reading tracker's bar (`<progress value="32" max="100">`), as Obsidian draws it.
  'progress', 'meter',
  ...MATHML,
  ...SVG,
];

// `style` on any element, as Obsidian shows it (Highlightr's `<mark style="background: #FF5582A6">`,
// Typora's `<img style="zoom:50%">`); the page's policy lets no style load a script. `align` where
// HTML had it (`<p align="center">`, `<div align=center>` in README-style notes).
const ALIGNED = Object.fromEntries(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'tr', 'caption'].map((tag) => [tag, ['align']]));

const ATTRIBUTES: sanitizeHtml.IOptions['allowedAttributes'] = {
  ...ALIGNED,
  '*': ['class', 'id', 'title', 'lang', 'dir', 'data-*', 'aria-*', 'role', 'style'],
  a: ['href', 'name', 'target', 'rel'],
  img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding', 'align'],
  source: ['src', 'srcset', 'type', 'media', 'sizes'],
  track: ['src', 'kind', 'srclang', 'label', 'default'],
  audio: ['src', 'controls', 'loop', 'muted', 'preload'],
  video: ['src', 'controls', 'loop', 'muted', 'preload', 'poster', 'width', 'height', 'playsinline'],
  iframe: ['src', 'width', 'height', 'allow', 'allowfullscreen', 'frameborder', 'loading', 'referrerpolicy'],
  input: ['type', 'checked', 'disabled'],
  th: ['colspan', 'rowspan', 'align', 'scope'],
  td: ['colspan', 'rowspan', 'align'],
  ol: ['start', 'type', 'reversed'],
  li: ['value'],
  details: ['open'],
  progress: ['value', 'max'],
  meter: ['value', 'min', 'max', 'low', 'high', 'optimum'],
  time: ['datetime'],
  font: ['color', 'size', 'face'],
  math: ['display', 'xmlns'],
  annotation: ['encoding'],
  mo: ['stretchy', 'fence', 'separator', 'lspace', 'rspace', 'minsize', 'maxsize', 'accent', 'movablelimits'],
  mi: ['mathvariant'],
  mstyle: ['displaystyle', 'scriptlevel', 'mathcolor', 'mathsize'],
  mspace: ['width'],
  mpadded: ['width', 'height', 'depth', 'lspace', 'voffset'],
  mtable: ['columnalign', 'rowspacing', 'columnspacing', 'columnlines'],
  mtd: ['columnalign'],
  menclose: ['notation'],
  mover: ['accent'],
  munder: ['accentunder'],
  mfrac: ['linethickness'],
  // Attribute names arrive lowercased from the HTML parser (browsers restore SVG's case).
  svg: ['xmlns', 'width', 'height', 'viewbox', 'preserveaspectratio'],
  path: ['d'],
  line: ['x1', 'y1', 'x2', 'y2', 'stroke-width'],
  rect: ['x', 'y', 'width', 'height'],
};

/**
 * What a framed video may be allowed (YouTube's and Vimeo's embed code): playing, full
 * screen, picture in picture, the motion sensors a 360° video reads. A note never hands a
 * frame the camera, microphone, location, payment or the clipboard's contents, for which
 * the browser would ask the reader in this site's name.
 */
const FRAME_FEATURES = new Set(['autoplay', 'encrypted-media', 'picture-in-picture', 'fullscreen', 'clipboard-write', 'web-share', 'accelerometer', 'gyroscope']);
/** Referrer policies that tell a framed site no more than the page's origin. */
const FRAME_REFERRERS = new Set(['no-referrer', 'origin', 'strict-origin', 'strict-origin-when-cross-origin', 'same-origin']);

function frameAttributes(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const { allow, referrerpolicy, ...rest } = attribs;
  const features = (allow ?? '')
    .split(';')
    .map((d) => d.trim())
    .filter((d) => FRAME_FEATURES.has(d.split(/\s+/)[0]!.toLowerCase()));
  return {
    ...rest,
    ...(features.length ? { allow: features.join('; ') } : {}),
    ...(referrerpolicy && FRAME_REFERRERS.has(referrerpolicy.trim().toLowerCase()) ? { referrerpolicy: referrerpolicy.trim().toLowerCase() } : {}),
  };
}

const SCHEMES_BY_TAG = { img: ['http', 'https', 'data'], iframe: ['https'] };

export const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: TAGS,
  allowedAttributes: ATTRIBUTES,
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: SCHEMES_BY_TAG,
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'srcset', 'poster'],
  allowProtocolRelative: false,
  // Void elements written as such (a <picture>'s <source> too, never with a closing tag).
  selfClosing: [...sanitizeHtml.defaults.selfClosing, 'source', 'track'],
  // <script>, <style>, <textarea>: their text goes too, not only the tags.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title'],
  transformTags: {
    // A task-list box is shown, never a field someone can type into; any other input goes
    // (a tag no list allows is dropped), not turned into a box no task made.
    input: (tagName, attribs) =>
      (attribs.type ?? '').trim().toLowerCase() === 'checkbox' ? { tagName, attribs: { ...attribs, type: 'checkbox', disabled: '' } } : { tagName: 's-dropped-input', attribs: {} },
    iframe: (tagName, attribs) => ({ tagName, attribs: frameAttributes(attribs) }),
    // Whatever it targets, no link hands the page it opens this one's window: `opener` goes
    // from a rel it writes (a reviewer's find, in the admin's rendered-note frame).
    a: (tagName, attribs) => {
      if (attribs.target) return { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } };
      if (attribs.rel === undefined) return { tagName, attribs };
      const rel = attribs.rel.split(/\s+/).filter((token) => token !== '' && token.toLowerCase() !== 'opener');
      const { rel: _dropped, ...rest } = attribs;
      return { tagName, attribs: rel.length ? { ...rest, rel: rel.join(' ') } : rest };
    },
  },
  // An iframe needs an absolute https source: a relative one would frame this very site.
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !/^https:\/\//i.test(frame.attribs.src ?? ''),
};

const LINK_SCHEMES = SANITIZE_OPTIONS.allowedSchemes as string[];
/** The schemes written in the fragment's link addresses, as they are written (an encoded one is not seen, so not allowed). */
const HREF_SCHEME = /\bhref\s{0,20}=["'\s]{0,20}([a-z][a-z0-9+.-]{0,31}):/gi;

/**
 * The options for one fragment: a link keeps any scheme a Markdown link keeps (Obsidian's app
 * links, `zotero://open-pdf/…`, `kindle://book?…`, `obsidian://open?…`), so a paragraph's links
 * do not lose their addresses because raw HTML sits beside them. The sanitiser takes a list of
 * schemes, markdown-it refuses a few: the list is made from what the fragment holds.
 */
function optionsFor(html: string): sanitizeHtml.IOptions {
  let extra: Set<string> | null = null;
  for (const m of html.matchAll(HREF_SCHEME)) {
    const scheme = m[1]!.toLowerCase();
    if (LINK_SCHEMES.includes(scheme) || !followableScheme(scheme)) continue;
    (extra ??= new Set()).add(scheme);
  }
  if (!extra) return SANITIZE_OPTIONS;
  return { ...SANITIZE_OPTIONS, allowedSchemesByTag: { ...SCHEMES_BY_TAG, a: [...LINK_SCHEMES, ...extra] } };
}

/** The note's HTML with everything that could run removed. */
export function sanitizeNoteHtml(html: string): string {
  return sanitizeHtml(html, optionsFor(html));
}
