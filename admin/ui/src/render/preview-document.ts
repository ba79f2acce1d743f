// The preview of a note as a reader gets it: the server renders the text with the site's
// renderer (POST /api/preview), the holes that depend on the rest of the vault are filled
// here with the app's links, and the document links the site's own stylesheets, inside the
// same markup as the article page, so callouts, code colours and dark mode are the site's.
import { escapeHtml } from '../../../../shared/note/escape.ts';
import { fillPrepared, type PreparedHtml } from '../../../../shared/note/slots.ts';
import type { RenderLinks } from '../../../../shared/note/env.ts';
import { encodeAddress, noteAddress as addressOf } from '../../../../shared/model/addresses.ts';
import type { VaultPath } from '../../../../shared/vault-path.ts';

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

/** POST /api/preview's answer. */
export interface NotePreview {
  title: string;
  lang: string;
  dir: 'rtl' | 'ltr';
  prepared: PreparedHtml;
  /** The stylesheets the site's pages link, and KaTeX's; null when no public site runs. */
  stylesheets: { page: string[]; katex: string } | null;
}

/** The note's body HTML, its links pointing where the app's tree says. */
export function previewHtml(preview: NotePreview, links: Links): string {
  const shared: RenderLinks = {
    note: (target) => {
      const href = links.note(target);
      return href === null ? null : { href, title: target };
    },
    attachment: (target) => links.attachment(target),
  };
  return fillPrepared(preview.prepared, shared);
}

/** A full document for the sandboxed frame: the article page's markup and the site's stylesheets. */
/** `theme`: the admin's own choice of light or dark, which the site's stylesheet follows as it follows a reader's; null follows the system. */
export function articleDocument(preview: NotePreview, html: string, theme: 'light' | 'dark' | null = null): string {
  const styles = preview.stylesheets;
  const links = styles ? [...(html.includes('class="katex') ? [styles.katex] : []), ...styles.page] : [];
  const lang = escapeHtml(preview.lang);
  return (
    `<!doctype html><html lang="${lang}" dir="${preview.dir}"${theme ? ` data-theme="${theme}"` : ''}><head><meta charset="utf-8"><base target="_blank">` +
    links.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('') +
    `</head><body class="s-blog s-page-article"><main class="s-main"><article class="s-article" lang="${lang}" dir="${preview.dir}">` +
    `<header class="s-article-head"><h1 class="s-title">${escapeHtml(preview.title)}</h1></header>` +
    `<div class="s-article-body">${html}</div></article></main></body></html>`
  );
}
