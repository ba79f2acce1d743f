// Block links (`[[Note#^id]]`): the blocks of a note are read with the site's own parser
// (shared/note/obsidian/block-list.ts), loaded on first use as the preview's renderer is.
type BlockList = typeof import('../../../../shared/note/obsidian/block-list.ts');
export type { NoteBlock } from '../../../../shared/note/obsidian/block-list.ts';

let loaded: BlockList | null = null;
let loading: Promise<BlockList> | null = null;

/** The block functions: at once once loaded, else their loading. */
export function blockList(): BlockList | Promise<BlockList> {
  return loaded ?? (loading ??= import('../../../../shared/note/obsidian/block-list.ts').then((m) => (loaded = m)));
}
