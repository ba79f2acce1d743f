// An SVG on a static host opens as a document of the site's own address, scripts and all.
// So a snapshot's SVG is decoded the way an XML parser decodes it (byte-order mark, then the
// XML declaration's encoding), parsed by a real namespace-aware XML parser, checked, and
// written again from the parsed tree as plain ASCII XML: the browser then parses exactly
// the tree that was checked, whatever encoding or spelling tricks the original used.
import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
/** Namespaces whose elements a browser makes live inside an SVG (pages, frames, forms). */
const ACTIVE_NS = new Set(['http://www.w3.org/1999/xhtml', 'http://www.w3.org/1998/Math/MathML']);

/** An SVG bigger than this is not read through: left out. */
export const MAX_SVG_BYTES = 8 * 1024 * 1024;

export class SvgRefused extends Error {}

const refuse = (why: string): never => {
  throw new SvgRefused(why);
};

/** The text of an XML file's bytes, decoded as a browser's XML parser would, or refused. */
export function decodeXml(bytes: Buffer): string {
  const has = (...prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
  if (has(0x00, 0x00, 0xfe, 0xff) || has(0xff, 0xfe, 0x00, 0x00)) refuse('it is UTF-32, which is not decoded here');
  let label: string;
  let body = bytes;
  if (has(0xef, 0xbb, 0xbf)) [label, body] = ['utf-8', bytes.subarray(3)];
  else if (has(0xfe, 0xff)) [label, body] = ['utf-16be', bytes.subarray(2)];
  else if (has(0xff, 0xfe)) [label, body] = ['utf-16le', bytes.subarray(2)];
  else {
    // Without a byte-order mark the declaration, in ASCII, names the encoding; UTF-8 when none.
    const head = bytes.subarray(0, 256).toString('latin1');
    if (head.includes('\u0000')) refuse('its encoding cannot be told (a NUL byte in its first line)');
    const declared = /^<\?xml[ \t\r\n][^>]*?encoding[ \t\r\n]*=[ \t\r\n]*(["'])([A-Za-z][A-Za-z0-9._-]*)\1/.exec(head);
    label = declared ? declared[2]!.toLowerCase() : 'utf-8';
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true, ignoreBOM: true });
  } catch {
    return refuse(`its encoding ${JSON.stringify(label)} is not one this build decodes`);
  }
  try {
    return decoder.decode(body);
  } catch {
    return refuse(`its bytes are not valid ${label}`);
  }
}

/** data: URLs a same-document reference may be besides `#fragment`: raster images (and fonts, in CSS). */
const RASTER_DATA = /^data:image\/(png|jpe?g|gif|webp|avif|bmp)[;,]/i;
const FONT_DATA = /^data:(font\/(woff2?|ttf|otf|sfnt)|application\/(font-woff2?|x-font-(ttf|otf|woff)))[;,]/i;

/** A URL as a browser reads it: tabs and line breaks dropped anywhere, spaces trimmed. */
const urlOf = (value: string) => value.replace(/[\t\n\r]/g, '').trim();

function checkReference(value: string, where: string, fonts = false): void {
  const url = urlOf(value);
  if (url.startsWith('#') || RASTER_DATA.test(url) || (fonts && FONT_DATA.test(url))) return;
  refuse(`${where} refers to something outside the file (${JSON.stringify(url.slice(0, 60))})`);
}

/** CSS text with its comments gone and escapes decoded (`\75 rl(` is `url(` to a browser). */
function plainCss(text: string): string {
  return text.replace(/\/\*[\s\S]*?(\*\/|$)/g, '').replace(/\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\\([^\n\r\f0-9a-fA-F])/g, (_, hex: string | undefined, ch: string | undefined) => {
    if (ch !== undefined) return ch;
    const code = parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

/** Refuses CSS (a style element, a style attribute, a presentation attribute) that loads anything from outside. */
export function checkCss(text: string, where: string): void {
  const css = plainCss(text);
  if (/@import/i.test(css)) refuse(`${where} imports a stylesheet`);
  // Functions that take a URL as a bare string.
  if (/(^|[^a-z0-9_-])(-webkit-)?(image-set|image|src|cross-fade|element)\s*\(/i.test(css)) refuse(`${where} names an image or a source by address`);
  for (const m of css.matchAll(/url\s*\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))/gi)) checkReference(m[1] ?? m[2] ?? m[3] ?? '', where, true);
}

/** Elements that run script or hold a page, in whatever namespace. */
const SCRIPTING = new Set(['script', 'foreignobject', 'handler', 'listener', 'iframe', 'frame', 'embed', 'object', 'portal', 'meta', 'base', 'link']);
/** SVG's animation elements: they may set any attribute of another element, a link's address among them. */
const ANIMATION = new Set(['set', 'animate', 'animatemotion', 'animatetransform', 'animatecolor']);

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function escapeText(text: string, quote: boolean): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (quote && ch === '"') out += '&quot;';
    // Kept as written: line breaks and tabs in an attribute would be read back as spaces.
    else if (code > 0x7e || (code < 0x20 && (quote || ch === '\r'))) out += `&#x${code.toString(16)};`;
    else out += ch;
  }
  return out;
}

/** The attributes of a kept SVG element as written out again, after checking each. */
function attributesOf(tag: SaxesTagNS, element: string): string {
  let out = '';
  const animation = ANIMATION.has(element.toLowerCase());
  for (const attr of Object.values(tag.attributes) as SaxesAttributeNS[]) {
    const local = attr.local.toLowerCase();
    const where = `<${element} ${attr.name}>`;
    if (local.startsWith('on')) refuse(`it holds an event handler (${where})`);
    if (attr.prefix === 'xmlns' || (attr.prefix === '' && attr.local === 'xmlns')) continue;
    if (local === 'href' || local === 'src') checkReference(attr.value, where);
    if (animation && /^attributename$/.test(local)) {
      const target = attr.value.trim().toLowerCase().replace(/^[^:]*:/, '');
      if (target === 'href' || target === 'src' || target === 'style' || target.startsWith('on')) refuse(`it animates an address or a handler (${where})`);
    }
    let name: string | null = null;
    if (attr.uri === '' && NAME.test(attr.local)) name = attr.local;
    else if (attr.uri === XLINK_NS && attr.local === 'href') name = 'xlink:href';
    else if (attr.uri === XML_NS && (attr.local === 'space' || attr.local === 'lang')) name = `xml:${attr.local}`;
    // Anything else (an editor's own attributes) does nothing in a browser: not written.
    if (name === null) continue;
    // CSS reads most attribute values (fill="url(…)", style, an animation's values); words for people it does not.
    if (!local.startsWith('aria-')) checkCss(attr.value, where);
    out += ` ${name}="${escapeText(attr.value, true)}"`;
  }
  return out;
}

/**
 * The SVG in `bytes` written again in a safe form (ASCII XML, SVG elements only), or a
 * refusal (SvgRefused) naming what could run script or reach outside the file.
 */
export function safeSvg(bytes: Buffer): Buffer {
  if (bytes.length > MAX_SVG_BYTES) refuse(`it is over ${MAX_SVG_BYTES / 1024 / 1024} MB, more than this build reads through`);
  const text = decodeXml(bytes);
  const parser = new SaxesParser({ xmlns: true, position: false });
  let out = '';
  /** Depth inside an element that is not written (another program's metadata), 0 outside one. */
  let skipping = 0;
  let root = true;
  /** Open SVG elements, for their style text. */
  const open: string[] = [];
  let styleText = '';
  parser.on('doctype', (doctype) => {
    if (doctype.includes('[')) refuse('it declares entities (an internal DTD subset)');
  });
  parser.on('processinginstruction', (pi) => {
    if (pi.target.toLowerCase() === 'xml-stylesheet') refuse('it names a stylesheet of its own (<?xml-stylesheet?>)');
  });
  parser.on('opentag', (tag) => {
    // A style's text is checked whole: an element inside it would split the text in two.
    if (open[open.length - 1] === 'style') refuse(`it holds an element inside a <style> (<${tag.name}>)`);
    const local = tag.local.toLowerCase();
    if (SCRIPTING.has(local)) refuse(`it holds a script, a frame or an embedded object (<${tag.name}>)`);
    if (ACTIVE_NS.has(tag.uri)) refuse(`it holds HTML or MathML (<${tag.name}>)`);
    if (root) {
      if (tag.uri !== SVG_NS || tag.local !== 'svg') refuse('its root is not an SVG <svg> element');
      root = false;
    }
    if (skipping > 0 || tag.uri !== SVG_NS || !NAME.test(tag.local)) {
      // Still checked: a handler on a skipped element says what the file is for.
      for (const attr of Object.values(tag.attributes) as SaxesAttributeNS[]) {
        if (attr.local.toLowerCase().startsWith('on')) refuse(`it holds an event handler (<${tag.name} ${attr.name}>)`);
      }
      skipping++;
      return;
    }
    const declarations = open.length === 0 ? ` xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"` : '';
    out += `<${tag.local}${declarations}${attributesOf(tag, tag.local)}>`;
    open.push(tag.local);
    if (tag.local === 'style') styleText = '';
  });
  const onText = (t: string) => {
    if (skipping > 0) return;
    if (open[open.length - 1] === 'style') styleText += t;
    out += escapeText(t, false);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    if (skipping > 0) {
      skipping--;
      return;
    }
    const name = open.pop()!;
    if (name === 'style') checkCss(styleText, '<style>');
    out += `</${name}>`;
  });
  try {
    parser.write(text).close();
  } catch (err) {
    if (err instanceof SvgRefused) throw err;
    refuse(`it is not well-formed XML (${(err as Error).message.replace(/^[^:]*:\d+:\d+: /, '').slice(0, 80)})`);
  }
  if (root) refuse('it holds no <svg> element');
  return Buffer.from(out, 'ascii');
}
