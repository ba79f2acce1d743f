// Where an inline tag is in a note's text, and what it says: the syntax alone. The Markdown
// rule around it (obsidian/tags.ts) decides where it applies (not in code, math or HTML).

/**
 * The characters a tag is made of: letters, digits, `_`, `-`, `/` for nesting, and emoji
 * (with their modifiers and joiners), as Obsidian reads `#🌱garden`.
 */
export const TAG_CHARS = '\\p{L}\\p{N}\\p{M}_\\-/\\p{Extended_Pictographic}\\p{Emoji_Modifier}\\u200d';

// The characters of a tag, matched where the `#` ends (sticky).
const TAG_BODY = new RegExp(`[${TAG_CHARS}]+`, 'uy');

/** The tag starting at `pos` (which holds `#`), without the `#`, or null (`boundary`: what is before `pos` ends a word, as an HTML tag does). */
export function tagAt(src: string, pos: number, boundary = false): string | null {
  if (src.charCodeAt(pos) !== 0x23 /* # */) return null;
  if (pos > 0 && !boundary && !/\s/.test(src[pos - 1]!)) return null;
  TAG_BODY.lastIndex = pos + 1;
  const m = TAG_BODY.exec(src);
  if (!m) return null;
  const tag = m[0].replace(/(?<!\/)\/+$/, '');
  if (tag === '' || /^[\d/]+$/.test(tag) || tag.startsWith('/')) return null;
  return tag;
}
