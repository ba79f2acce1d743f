// Inline tags (`#tag`, `#parent/child`) as Obsidian reads them: after a space or at the
// start of a line, letters, digits, `_`, `-` and `/`, not only digits. Code, headings'
// `#` marks, URLs and wikilinks never reach this rule (their own rules take them first).
import type MarkdownIt from 'markdown-it';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import type { NoteEnv } from '../env.ts';
import { escapeHtml } from '../escape.ts';
import { slotOrHtml } from '../slots.ts';

// The characters of a tag, matched where the `#` ends (sticky).
const TAG_BODY = /[\p{L}\p{N}\p{M}_\-/]+/uy;

/** The tag starting at `pos` (which holds `#`), without the `#`, or null. */
export function tagAt(src: string, pos: number): string | null {
  if (src.charCodeAt(pos) !== 0x23 /* # */) return null;
  if (pos > 0 && !/\s/.test(src[pos - 1]!)) return null;
  TAG_BODY.lastIndex = pos + 1;
  const m = TAG_BODY.exec(src);
  if (!m) return null;
  const tag = m[0].replace(/\/+$/, '');
  if (tag === '' || /^[\d/]+$/.test(tag) || tag.startsWith('/')) return null;
  return tag;
}

function tagRule(state: StateInline, silent: boolean): boolean {
  const tag = tagAt(state.src, state.pos);
  if (tag === null || state.pos + 1 + tag.length > state.posMax) return false;
  if (!silent) {
    const token = state.push('obsidian_tag', '', 0);
    token.content = tag;
  }
  state.pos += 1 + tag.length;
  return true;
}

/** A tag for a page: a link to its topic page, or plain text when it has none. */
export function tagHtml(tag: string, env: NoteEnv): string {
  const href = env.links?.tag?.(tag) ?? null;
  const text = `#${escapeHtml(tag)}`;
  return href ? `<a class="tag s-inline-tag" href="${escapeHtml(href)}">${text}</a>` : `<span class="tag s-inline-tag">${text}</span>`;
}

export function tagsPlugin(md: MarkdownIt): void {
  md.inline.ruler.after('text', 'obsidian_tag', tagRule);
  md.renderer.rules.obsidian_tag = (tokens, idx, _opts, env: NoteEnv) => slotOrHtml(env, { kind: 'tag', tag: tokens[idx]!.content });
}
