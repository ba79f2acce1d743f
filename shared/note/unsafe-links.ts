// A link whose address no reader may follow (`file:`, `javascript:`, `vbscript:`, `data:` other
// than a picture): markdown-it refuses to make it a link, and then shows its whole source
// (`[Drive](<file:///C:/My Drive/Index.md>)`) where Obsidian shows the words "Drive". Every
// address now parses as a link, and this rule, first after the inline parse, takes such a
// link's element away and keeps its words (a picture's, its alt text): nothing after it ever
// sees the address, as before.
import type MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';

/** markdown-it's refused schemes (its `validateLink`), for the addresses raw HTML holds: the two agree (test/unit/html-link-schemes.test.ts). */
const REFUSED_SCHEMES = new Set(['javascript', 'vbscript', 'file', 'data']);

/** Whether a link's scheme (lowercase, no colon) is one a reader may follow. */
export function followableScheme(scheme: string): boolean {
  return !REFUSED_SCHEMES.has(scheme);
}

export function unsafeLinksPlugin(md: MarkdownIt): void {
  const safe = md.validateLink.bind(md);
  md.validateLink = () => true;
  const linkWords = (state: StateCore): void => {
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      if (block.children.every((t) => (t.type === 'link_open' ? safe(t.attrGet('href') ?? '') : t.type === 'image' ? safe(t.attrGet('src') ?? '') : true))) continue;
      const out: Token[] = [];
      // For each open link, whether its element is dropped.
      const open: boolean[] = [];
      for (const t of block.children) {
        if (t.type === 'link_open') {
          const drop = !safe(t.attrGet('href') ?? '');
          open.push(drop);
          if (drop) continue;
        } else if (t.type === 'link_close') {
          if (open.pop()) continue;
        } else if (t.type === 'image' && !safe(t.attrGet('src') ?? '')) {
          const words = new state.Token('text', '', 0);
          words.content = t.content;
          out.push(words);
          continue;
        }
        out.push(t);
      }
      block.children = out;
    }
  };
  // Right after the inline parse: before the rules that read links (embeds, Obsidian URIs, the note's facts).
  md.core.ruler.after('inline', 'unsafe_links', linkWords);
}
