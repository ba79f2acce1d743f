// Renders a note's text the way its article renders: frontmatter off, title from
// `title:` (else the file name), Markdown by markdown-it, wikilinks to note
// addresses (CONTRACT §6). Loaded on demand; the HTML is shown in a sandboxed frame.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: true, linkify: true, typographer: false });

/** CONTRACT §6: `Folder/My Note.md` → `/Folder/My-Note`. */
export function noteAddress(path: string): string {
  const bare = path.replace(/\.(md|markdown|tex)$/i, '').replace(/ /g, '-');
  return '/' + bare.split('/').map(encodeURIComponent).join('/');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const WIKILINK = /(!?)\[\[([^\[\]|#\n]+?)(#[^\[\]|\n]*)?(\|[^\[\]\n]*)?\]\]/g;

function splitFrontmatter(text: string): { data: Record<string, string>; body: string } {
  const m = text.match(/^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\s*(?:\r?\n|$)/);
  if (!m) return { data: {}, body: text };
  const data: Record<string, string> = {};
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = line.match(/^([A-Za-z_][\w-]*)\s*:\s*(.*)$/);
    if (kv) data[kv[1]!] = kv[2]!.replace(/^["']|["']$/g, '');
  }
  return { data, body: text.slice(m[0].length) };
}

export function renderNote(path: string, text: string, fileUrl: (p: string) => string): { title: string; html: string; rtl: boolean } {
  const { data, body } = splitFrontmatter(text);
  const title = data.title || path.slice(path.lastIndexOf('/') + 1).replace(/\.(md|markdown|tex)$/i, '');
  const linked = body.replace(WIKILINK, (_w, bang: string, target: string, heading?: string, alias?: string) => {
    const label = alias ? alias.slice(1) : target.trim();
    if (bang) {
      if (/\.(png|jpe?g|gif|webp|avif|svg)$/i.test(target)) return `<img src="${escapeHtml(fileUrl(target.trim()))}" alt="${escapeHtml(label)}">`;
      return `<span class="embed">${escapeHtml(label)}</span>`;
    }
    const hash = heading ? '#' + encodeURIComponent(heading.slice(1).trim().replace(/ /g, '-')) : '';
    return `<a href="${escapeHtml(noteAddress(target.trim()) + hash)}" class="wikilink">${escapeHtml(label)}</a>`;
  });
  // spec D.1: an Arabic article runs right-to-left on its own.
  const letters = body.replace(/[^\p{L}]/gu, '');
  const arabic = (letters.match(/[\u0600-\u06FF]/g) ?? []).length;
  return { title, html: md.render(linked), rtl: letters.length > 0 && arabic / letters.length > 0.3 };
}

/** A full document for a sandboxed iframe: the article plus a reading stylesheet. */
export function articleDocument(rendered: { title: string; html: string; rtl: boolean }, dark: boolean): string {
  const dir = rendered.rtl ? 'rtl' : 'ltr';
  return `<!doctype html><html dir="${dir}"><head><meta charset="utf-8"><base target="_blank"><style>
:root{color-scheme:${dark ? 'dark' : 'light'}}
body{font:17px/1.65 Georgia,'Noto Naskh Arabic',serif;max-width:42rem;margin:1.5rem auto;padding:0 1.25rem;color:${dark ? '#e6e3dc' : '#1f1d1a'};background:${dark ? '#1b1a18' : '#fffdf8'}}
h1,h2,h3{font-family:system-ui,sans-serif;line-height:1.25}a{color:${dark ? '#e0b95b' : '#8a5a00'}}
img{max-width:100%}pre{overflow:auto;padding:.75rem;background:${dark ? '#2a2825' : '#f3efe6'}}code{font-size:.9em}
blockquote{margin-inline:0;padding-inline-start:1rem;border-inline-start:3px solid #c9a64a;color:inherit;opacity:.85}
table{border-collapse:collapse}td,th{border:1px solid #8884;padding:.25rem .5rem}
</style></head><body><article><h1>${escapeHtml(rendered.title)}</h1>${rendered.html}</article></body></html>`;
}
