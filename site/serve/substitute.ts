// Built pages carry a few markers filled in when they are served: the absolute base URL,
// the topic row, the Edit link a signed-in admin sees on articles (CONTRACT §6), and the
// notice a visitor's own comment earns when the form comes back without a script
// (CONTRACT §8). A static snapshot's pages are rendered without them (site/render/snapshot-page.ts).
import { BASE_TOKEN, BASE_TOKEN_ENCODED } from '../plan/frame.ts';
import { explorerFor } from '../plan/explorer-view.ts';

export const NAV_MARKER = '<!--service:nav-->';
/** A garden page's marker names the page, so its explorer shows it current (site/plan/explorer-view.ts). */
const NAV_HERE_MARKER = /<!--service:nav:([^>]*)-->/;
const EDIT_MARKER = /<!--service:edit:([^:>]*):([^:>]*)-->/g;
const NOTICE_MARKER = /<!--service:notice:([^:>]*):([^:>]*)-->/;

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

function fillShared(body: string, base: string, nav: string): string {
  let out = body;
  if (out.includes(BASE_TOKEN_ENCODED)) out = out.replaceAll(BASE_TOKEN_ENCODED, encodeURIComponent(base));
  if (out.includes(BASE_TOKEN)) out = out.replaceAll(BASE_TOKEN, base);
  // A function, not a string: a `$&` in a note's title is text, not a replacement pattern.
  if (out.includes(NAV_MARKER)) out = out.replace(NAV_MARKER, () => explorerFor(nav, ''));
  else if (out.includes('<!--service:nav:')) out = out.replace(NAV_HERE_MARKER, (_, here: string) => explorerFor(nav, here));
  return out;
}

/**
 * The page a visitor reads, plus where the admin's Edit links belong in it, so the
 * admin's page is the visitor's bytes with the links spliced in (no second pass).
 */
export function materializeForVisitor(body: string, base: string, nav: string): { text: string; edits: EditSplice[]; notice: NoticeSplice | null } {
  let filled = fillShared(body, base, nav);
  let notice: NoticeSplice | null = null;
  const found = filled.includes('<!--service:notice:') ? NOTICE_MARKER.exec(filled) : null;
  if (found) {
    filled = filled.slice(0, found.index) + filled.slice(found.index + found[0].length);
    notice = { at: found.index, pending: decode(found[1]!), approved: decode(found[2]!) };
  }
  if (!filled.includes('<!--service:edit:')) return { text: filled, edits: [], notice: notice && { ...notice, at: Buffer.byteLength(filled.slice(0, notice.at)) } };
  const edits: EditSplice[] = [];
  let text = '';
  let last = 0;
  let noticeAt = -1;
  for (const m of filled.matchAll(EDIT_MARKER)) {
    if (notice && noticeAt < 0 && notice.at <= m.index!) noticeAt = Buffer.byteLength(text + filled.slice(last, notice.at));
    text += filled.slice(last, m.index);
    edits.push({ at: Buffer.byteLength(text), html: editLink(m[1]!, m[2]!) });
    last = m.index! + m[0].length;
  }
  if (notice && noticeAt < 0) noticeAt = Buffer.byteLength(text + filled.slice(last, notice.at));
  return { text: text + filled.slice(last), edits, notice: notice && { ...notice, at: noticeAt } };
}
