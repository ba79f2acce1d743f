// The one way to a note's public plain text: private comments removed with the
// parser's view of code (comments.ts), then the parser's blocks as plain text
// (plain-text.ts). The excerpt, meta description, feed, word count and search index
// are all made from this, never from the raw note.
import { publicMarkdown } from './comments.ts';
import { markdown } from './md.ts';
import { blocksText, plainBlocks, type PlainBlock } from './plain-text.ts';

/** The note body's public blocks (`body` is the note without its frontmatter). */
export function publicBlocks(body: string): PlainBlock[] {
  return plainBlocks(markdown().parse(publicMarkdown(body), {}));
}

/** The note body's public text as plain text, blocks separated by blank lines. */
export function publicText(body: string): string {
  return blocksText(publicBlocks(body));
}
