// A ```base code block is a base (Obsidian Bases): the page shows its views, worked out by
// the host over the published notes (RenderLinks.base). Without a host it stays code.
import type MarkdownIt from 'markdown-it';
import type { NoteEnv } from '../env.ts';
import { slotOrHtml } from '../slots.ts';

/** A fence's language as the renderer reads it: the first word of its info, in lower case. */
export const fenceLanguage = (info: string): string => info.trim().split(/\s+/)[0]!.toLowerCase();

export function baseBlocksPlugin(md: MarkdownIt): void {
  const previous = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, opts, env: NoteEnv, self) => {
    const token = tokens[idx]!;
    if (fenceLanguage(token.info) !== 'base' || !(env.holes || env.links?.base)) return previous(tokens, idx, opts, env, self);
    return slotOrHtml(env, { kind: 'base', source: token.content });
  };
}
