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

export function materialize(body: string, s: Substitutions): string {
  let out = body;
  if (out.includes(BASE_TOKEN_ENCODED)) out = out.replaceAll(BASE_TOKEN_ENCODED, encodeURIComponent(s.base));
  if (out.includes(BASE_TOKEN)) out = out.replaceAll(BASE_TOKEN, s.base);
  if (out.includes(NAV_MARKER)) out = out.replace(NAV_MARKER, s.nav);
  if (out.includes('<!--service:edit:')) {
    out = out.replace(EDIT_MARKER, (_m, encodedPath: string, label: string) =>
      s.admin ? ` <a class="s-edit" href="/admin/?path=${escapeHtml(encodedPath)}" rel="nofollow">${escapeHtml(decode(label))}</a>` : '',
    );
  }
  return out;
}
