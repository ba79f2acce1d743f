// A ```base code block is a base (Obsidian Bases): the page shows its views, worked out by
// the host over the published notes (RenderLinks.base). Without a host it stays code.
import type MarkdownIt from 'markdown-it';
import type { NoteEnv } from '../env.ts';
import { slotOrHtml } from '../slots.ts';

export function baseBlocksPlugin(md: MarkdownIt): void {
  const previous = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, opts, env: NoteEnv, self) => {
    const token = tokens[idx]!;
    const lang = token.info.trim().split(/\s+/)[0]!.toLowerCase();
    if (lang !== 'base' || !(env.holes || env.links?.base)) return previous(tokens, idx, opts, env, self);
    return slotOrHtml(env, { kind: 'base', source: token.content });
  };
}
