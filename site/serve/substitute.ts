// Built pages carry a few markers filled in when they are served: the absolute base URL,
// the topic row, the link to the designer's custom.css (site/plan/custom-css.ts: a new
// stylesheet prepares the pages again, it rebuilds none), the Edit link a signed-in admin
// sees on articles (CONTRACT §6), and the notice a visitor's own comment earns when the
// form comes back without a script (CONTRACT §8). A static snapshot's pages are rendered without them (site/render/snapshot-page.ts).
import { BASE_TOKEN, BASE_TOKEN_ENCODED } from '../plan/frame.ts';
import { explorerFor } from '../plan/explorer-view.ts';

export const NAV_MARKER = '<!--service:nav-->';
export const STYLE_MARKER = '<!--service:style-->';

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Where the admin's Edit link goes in a visitor's page: a byte offset and the link. */
export interface EditSplice {
  at: number;
  html: string;
}

/** Where a comment's notice goes (a byte offset), and its two texts. */
export interface NoticeSplice {
  at: number;
  pending: string;
  approved: string;
}

export type NoticeKind = 'pending' | 'approved';

/** The notice itself: a sentence from our own templates, escaped again all the same. */
export function noticeHtml(text: string): string {
  return `<p class="s-comment-notice" id="comment-notice" role="status">${escapeHtml(text)}</p>`;
}

function editLink(encodedPath: string, label: string): string {
  return ` <a class="s-edit" href="/admin/?path=${escapeHtml(encodedPath)}" rel="nofollow">${escapeHtml(decode(label))}</a>`;
}

/** A marker found in a built page: the bytes it spans and what takes its place. */
interface Hit {
  at: number;
  end: number;
  put?: Buffer;
  edit?: string;
  notice?: { pending: string; approved: string };
}

const ascii = (s: string) => Buffer.from(s, 'latin1');
const BASE = ascii(BASE_TOKEN);
const BASE_ENCODED = ascii(BASE_TOKEN_ENCODED);
const NAV = ascii(NAV_MARKER);
const STYLE = ascii(STYLE_MARKER);
/** A garden page's marker names the page, so its explorer shows it current (site/plan/explorer-view.ts). */
const NAV_HERE = ascii('<!--service:nav:');
const EDIT = ascii('<!--service:edit:');
const NOTICE = ascii('<!--service:notice:');
const COLON = 0x3a;
const GT = 0x3e;
const DASH = 0x2d;

/**
 * The fields of a marker `prefix` f1:…:fn `-->` starting at `at` (each field without `:` or
 * `>`, as /prefix([^:>]*):([^:>]*)-->/ reads them; one field without `>` for the nav's), and
 * where it ends; null when the bytes there are not one.
 */
function markerAt(page: Buffer, at: number, prefix: Buffer, fields: number): { values: string[]; end: number } | null {
  const values: string[] = [];
  let from = at + prefix.length;
  for (let f = 0; f < fields; f++) {
    let i = from;
    const last = f === fields - 1;
    while (i < page.length && page[i] !== GT && (fields === 1 || page[i] !== COLON)) i++;
    if (i >= page.length) return null;
    if (!last) {
      if (page[i] !== COLON) return null;
      values.push(page.toString('utf8', from, i));
      from = i + 1;
      continue;
    }
    // The last field ends where `-->` does: the first `>` (or `:`, which no field holds) must close it.
    if (page[i] !== GT || i - 2 < from || page[i - 1] !== DASH || page[i - 2] !== DASH) return null;
    values.push(page.toString('utf8', from, i - 2));
    return { values, end: i + 1 };
  }
  return null;
}

/** Every place `needle` starts in `page`. */
function* occurrences(page: Buffer, needle: Buffer): Generator<number> {
  for (let at = page.indexOf(needle); at >= 0; at = page.indexOf(needle, at + needle.length)) yield at;
}

/** The first marker `prefix` in `page` that reads as one, else null. */
function firstMarker(page: Buffer, prefix: Buffer, fields: number): (Hit & { values: string[] }) | null {
  for (const at of occurrences(page, prefix)) {
    const m = markerAt(page, at, prefix, fields);
    if (m) return { at, end: m.end, values: m.values };
  }
  return null;
}

/**
 * The page a visitor reads, plus where the admin's Edit links belong in it, so the admin's
 * page is the visitor's bytes with the links spliced in (no second pass). Worked on the
 * built bytes in one pass: a large page decoded to a string and encoded again cost the
 * server tens of milliseconds a save and left its copies for V8 to collect.
 */
export function materializeBytes(page: Buffer, base: string, nav: string, style = ''): { body: Buffer; edits: EditSplice[]; notice: NoticeSplice | null } {
  const hits: Hit[] = [];
  const encoded = Buffer.from(encodeURIComponent(base));
  const plain = Buffer.from(base);
  for (const at of occurrences(page, BASE_ENCODED)) hits.push({ at, end: at + BASE_ENCODED.length, put: encoded });
  for (const at of occurrences(page, BASE)) hits.push({ at, end: at + BASE.length, put: plain });
  const styleAt = page.indexOf(STYLE);
  if (styleAt >= 0) hits.push({ at: styleAt, end: styleAt + STYLE.length, put: Buffer.from(style) });
  const navAt = page.indexOf(NAV);
  if (navAt >= 0) hits.push({ at: navAt, end: navAt + NAV.length, put: Buffer.from(explorerFor(nav, '')) });
  else {
    const here = firstMarker(page, NAV_HERE, 1);
    if (here) hits.push({ at: here.at, end: here.end, put: Buffer.from(explorerFor(nav, here.values[0]!)) });
  }
  const notice = firstMarker(page, NOTICE, 2);
  if (notice) hits.push({ at: notice.at, end: notice.end, notice: { pending: decode(notice.values[0]!), approved: decode(notice.values[1]!) } });
  for (const at of occurrences(page, EDIT)) {
    const m = markerAt(page, at, EDIT, 2);
    if (m) hits.push({ at, end: m.end, edit: editLink(m.values[0]!, m.values[1]!) });
  }
  if (hits.length === 0) return { body: page, edits: [], notice: null };
  hits.sort((a, b) => a.at - b.at);
  const parts: Buffer[] = [];
  const edits: EditSplice[] = [];
  let noticeSplice: NoticeSplice | null = null;
  let last = 0;
  let length = 0;
  for (const hit of hits) {
    // Markers never overlap; a stray one inside a replaced marker is left to it.
    if (hit.at < last) continue;
    parts.push(page.subarray(last, hit.at));
    length += hit.at - last;
    if (hit.put) {
      parts.push(hit.put);
      length += hit.put.length;
    } else if (hit.edit !== undefined) edits.push({ at: length, html: hit.edit });
    else if (hit.notice) noticeSplice = { at: length, ...hit.notice };
    last = hit.end;
  }
  parts.push(page.subarray(last));
  length += page.length - last;
  return { body: Buffer.concat(parts, length), edits, notice: noticeSplice };
}

/** materializeBytes for a page held as text (its offsets are still bytes). */
export function materializeForVisitor(body: string, base: string, nav: string): { text: string; edits: EditSplice[]; notice: NoticeSplice | null } {
  const { body: out, edits, notice } = materializeBytes(Buffer.from(body), base, nav);
  return { text: out.toString('utf8'), edits, notice };
}
