// A note's inline `#tags` as the renderer's parser reads them (the `obsidian_tag` tokens the
// site's note facts collect, analyze.ts), for the admin's note index: a `#word` in code,
// math, raw HTML, an HTML comment or a private `%%` comment is no tag there, so it is none
// here. Only the parser's public parts run: the blocks of the whole text, then the inline
// text of only the blocks that hold a `#` (tags are inline tokens; no core rule after
// `inline` makes one).
import type Token from 'markdown-it/lib/token.mjs';
import { publicMarkdown } from './comments.ts';
import { blockTokens, markdown } from './md.ts';
import { tagAt } from './obsidian/tag-syntax.ts';

/** Whether some `#` of `text` starts a tag's syntax (most notes' `#` are headings' marks). */
function mayHoldTag(text: string): boolean {
  for (let at = text.indexOf('#'); at >= 0; at = text.indexOf('#', at + 1)) if (tagAt(text, at) !== null) return true;
  return false;
}

function collect(tokens: Token[], into: string[]): void {
  for (const t of tokens) {
    if (t.type === 'obsidian_tag') into.push(t.content);
    if (t.children) collect(t.children, into);
  }
}

/** The inline tags of `body` (a note without its frontmatter), in order, each as often as written. */
export function inlineTags(note: string): string[] {
  const tags: string[] = [];
  if (!mayHoldTag(note)) return tags;
  // The site reads the note without its private comments (note-record.ts).
  const body = publicMarkdown(note);
  const md = markdown();
  const env: { footnotes?: { list?: { tokens?: Token[] }[] } } = {};
  const blocks = blockTokens(body, env);
  for (const token of blocks) {
    if (token.type !== 'inline' || !mayHoldTag(token.content)) continue;
    const children: Token[] = [];
    md.inline.parse(token.content, md, env, children);
    collect(children, tags);
  }
  // An inline footnote's (`^[…]`) text is parsed apart from its paragraph.
  for (const footnote of env.footnotes?.list ?? []) if (footnote.tokens) collect(footnote.tokens, tags);
  return tags;
}
