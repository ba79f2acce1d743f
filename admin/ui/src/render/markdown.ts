// Renders a note the way its article renders (Appendix B: a revision "renders
// exactly as a note renders elsewhere"): the very renderer of the public article
// (shared/note/markdown.ts) and the same title and language rules from shared/note.
// Loaded on demand; the HTML is shown in a sandboxed frame.
import { escapeHtml, renderNoteHtml, type RenderLinks } from '../../../../shared/note/markdown.ts';
import { titleOf } from '../../../../shared/note/title.ts';
import { directionOf, noteLanguage } from '../../../../shared/note/language.ts';
import { encodeAddress, noteAddress as addressOf } from '../../../../shared/model/addresses.ts';
import type { VaultPath } from '../../../../shared/vault-path.ts';
import { readKey } from '../tree/frontmatter.ts';

export { escapeHtml };

/** CONTRACT §6, on the wire: `Folder/My Note.md` → `/Folder/My-Note`. */
export function noteAddress(path: string): string {
  return encodeAddress(addressOf(path as VaultPath));
}

export interface Links {
  /** The admin's address for a note target, or null when no such note. */
  note(target: string): string | null;
  /** A URL for an attachment target, or null. */
  attachment(target: string): string | null;
}

function splitFrontmatter(text: string): string {
  const m = text.match(/^---\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/);
  return m ? text.slice(m[0].length) : text;
}

export interface Rendered {
  title: string;
  html: string;
  dir: 'rtl' | 'ltr';
  lang: string;
}

export function renderNote(path: string, text: string, links: Links): Rendered {
  const body = splitFrontmatter(text);
  const data: Record<string, unknown> = {};
  for (const key of ['title', 'lang', 'language']) {
    const v = readKey(text, key);
    if (typeof v === 'string') data[key] = v;
  }
  const fileName = path.slice(path.lastIndexOf('/') + 1);
  const title = titleOf(data, body, fileName);
  const lang = noteLanguage(data, title, body);
  const shared: RenderLinks = {
    note: (target) => {
      const href = links.note(target);
      return href === null ? null : { href, title: target };
    },
    attachment: (target) => links.attachment(target),
  };
  return { title, html: renderNoteHtml(body, title, shared, /\.tex$/i.test(path)), dir: directionOf(lang), lang };
}

/** A full document for a sandboxed iframe: the article plus a reading stylesheet. */
export function articleDocument(r: Rendered, dark: boolean): string {
  const fg = dark ? '#e6e3dc' : '#1f1d1a';
  const bg = dark ? '#1b1a18' : '#fffdf8';
  const accent = dark ? '#e0b95b' : '#8a5a00';
  const code = dark ? '#2a2825' : '#f3efe6';
  return `<!doctype html><html lang="${escapeHtml(r.lang)}" dir="${r.dir}"><head><meta charset="utf-8"><base target="_blank"><style>
:root{color-scheme:${dark ? 'dark' : 'light'}}
body{font:17px/1.65 Georgia,'Noto Naskh Arabic',serif;max-width:42rem;margin:1.5rem auto;padding:0 1.25rem;color:${fg};background:${bg}}
h1,h2,h3{font-family:system-ui,sans-serif;line-height:1.25}a{color:${accent}}.s-unresolved{opacity:.7}
img,video{max-width:100%}pre{overflow:auto;padding:.75rem;background:${code}}code{font-size:.9em}
blockquote{margin-inline:0;padding-inline-start:1rem;border-inline-start:3px solid #c9a64a}
.s-callout{background:${code};padding:.5rem 1rem;border-radius:6px}.s-callout-title{display:block}
table{border-collapse:collapse}td,th{border:1px solid #8884;padding:.25rem .5rem}
</style></head><body><article class="s-article"><h1 class="s-title">${escapeHtml(r.title)}</h1><div class="s-body">${r.html}</div></article></body></html>`;
}
