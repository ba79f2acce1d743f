// Inline tags (`#tag`, `#parent/child`) as Obsidian reads them: after a space, an HTML tag or
// at the start of a line, letters, digits, `_`, `-` and `/`, not only digits. Code, headings'
// `#` marks, URLs and wikilinks never reach this rule (their own rules take them first).
import type MarkdownIt from 'markdown-it';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import type { NoteEnv } from '../env.ts';
import { escapeHtml } from '../escape.ts';
import { composed } from '../../vault-names.ts';
import { slotOrHtml } from '../slots.ts';
import { tagAt } from './tag-syntax.ts';

function tagRule(state: StateInline, silent: boolean): boolean {
  // Right after an HTML tag (`<span class="related">#feature</span>`, as a docs vault styles its tags): a tag, as in Obsidian.
  const last = state.tokens.at(-1);
  // Not inside the author's own link: a tag's link in it would be a link in a link.
  const afterHtml = state.pending === '' && last?.type === 'html_inline' && !/^<a[\s>]/i.test(last.content);
  const tag = tagAt(state.src, state.pos, afterHtml);
  if (tag === null || state.pos + 1 + tag.length > state.posMax) return false;
  if (!silent) {
    const token = state.push('obsidian_tag', '', 0);
    token.content = composed(tag);
  }
  state.pos += 1 + tag.length;
  return true;
}

/**
 * A tag for a page: a link to its topic page, or plain text when it has none. Its direction
 * is its own text's (`dir="auto"`): the `#` is neutral, so a Latin tag in an Arabic sentence
 * read `tag#`, as the site's chips did.
 */
export function tagHtml(tag: string, env: NoteEnv): string {
  const href = env.links?.tag?.(tag) ?? null;
  const text = `#${escapeHtml(tag)}`;
  return href ? `<a class="tag s-inline-tag" dir="auto" href="${escapeHtml(href)}">${text}</a>` : `<span class="tag s-inline-tag" dir="auto">${text}</span>`;
}

export function tagsPlugin(md: MarkdownIt): void {
  md.inline.ruler.after('text', 'obsidian_tag', tagRule);
  md.renderer.rules.obsidian_tag = (tokens, idx, _opts, env: NoteEnv) => slotOrHtml(env, { kind: 'tag', tag: tokens[idx]!.content });
}
