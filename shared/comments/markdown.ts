// A comment's body (CONTRACT §8): Markdown without HTML. Notes go through the one note
// renderer (shared/note/markdown.ts: raw HTML sanitised, Obsidian's syntax); a visitor's
// text gets a smaller dialect of the same parser: no raw HTML at all (it is shown as
// text), no images (no third-party request from a comment), no headings, links only to
// http(s) and mailto, each with rel="nofollow ugc".
import MarkdownIt from 'markdown-it';
import { linkBareAddresses } from '../note/bare-links.ts';
import { escapeHtml } from '../note/escape.ts';

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

function createCommentMarkdown(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  linkBareAddresses(md);
  md.disable(['image', 'heading', 'lheading', 'table']);
  md.validateLink = (url) => SAFE_LINK.test(url.trim());
  const open = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx]!.attrSet('rel', 'nofollow ugc noopener');
    return open(tokens, idx, options, env, self);
  };
  return md;
}

let shared: MarkdownIt | null = null;
const md = () => (shared ??= createCommentMarkdown());

/** The body as HTML: every character the visitor typed is escaped or a link we wrote. */
export function commentHtml(body: string): string {
  return md().render(body);
}

/** Links the body makes (Markdown links, autolinks and bare URLs): at most 3 are allowed. */
export function linkCount(body: string): number {
  let n = 0;
  for (const block of md().parse(body, {})) for (const t of block.children ?? []) if (t.type === 'link_open') n++;
  return n;
}

/** A mention's text (another site's words, no markup kept) as escaped paragraphs; empty text gives ''. */
export function plainTextHtml(text: string | null): string {
  if (!text || !text.trim()) return '';
  return text
    .trim()
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}
