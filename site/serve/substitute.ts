// Built pages carry a few markers filled in when they are served (and once, for
// good, in a static snapshot): the absolute base URL, the topic row, and the
// Edit link a signed-in admin sees on articles (CONTRACT §6).
import { BASE_TOKEN, BASE_TOKEN_ENCODED } from '../build/frame.ts';

export const NAV_MARKER = '<!--service:nav-->';
const EDIT_MARKER = /<!--service:edit:([^:>]*):([^:>]*)-->/g;

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

export interface Substitutions {
  base: string;
  nav: string;
  admin: boolean;
}

/** Where the admin's Edit link goes in a visitor's page: a byte offset and the link. */
export interface EditSplice {
  at: number;
  html: string;
}

function editLink(encodedPath: string, label: string): string {
  return ` <a class="s-edit" href="/admin/?path=${escapeHtml(encodedPath)}" rel="nofollow">${escapeHtml(decode(label))}</a>`;
}

function fillShared(body: string, base: string, nav: string): string {
  let out = body;
  if (out.includes(BASE_TOKEN_ENCODED)) out = out.replaceAll(BASE_TOKEN_ENCODED, encodeURIComponent(base));
  if (out.includes(BASE_TOKEN)) out = out.replaceAll(BASE_TOKEN, base);
  if (out.includes(NAV_MARKER)) out = out.replace(NAV_MARKER, nav);
  return out;
}

export function materialize(body: string, s: Substitutions): string {
  const out = fillShared(body, s.base, s.nav);
  if (!out.includes('<!--service:edit:')) return out;
  return out.replace(EDIT_MARKER, (_m, encodedPath: string, label: string) => (s.admin ? editLink(encodedPath, label) : ''));
}

/**
 * The page a visitor reads, plus where the admin's Edit links belong in it, so the
 * admin's page is the visitor's bytes with the links spliced in (no second pass).
 */
export function materializeForVisitor(body: string, base: string, nav: string): { text: string; edits: EditSplice[] } {
  const filled = fillShared(body, base, nav);
  if (!filled.includes('<!--service:edit:')) return { text: filled, edits: [] };
  const edits: EditSplice[] = [];
  let text = '';
  let last = 0;
  for (const m of filled.matchAll(EDIT_MARKER)) {
    text += filled.slice(last, m.index);
    edits.push({ at: Buffer.byteLength(text), html: editLink(m[1]!, m[2]!) });
    last = m.index! + m[0].length;
  }
  return { text: text + filled.slice(last), edits };
}
