// What the editor needs from the rest of the app, handed in once at start so
// the editor modules import nothing of the app: the vault's notes for `[[` suggestions,
// a note's headings and blocks, following a link, and storing a pasted image.
import type { Heading, NoteMeta } from '../types.ts';
import type { NoteBlock } from './block-links.ts';

export interface EditorTools {
  /** The vault's notes, as the tree last read them. */
  notes(): NoteMeta[];
  /** The headings of a note (its own are read from the editor). */
  headings(path: string): Promise<Heading[]>;
  /** The text of another note (its open tab's, else the server's), for its blocks. */
  noteText(path: string): Promise<string>;
  /**
   * Gives `block` (listed from that note's text) the id `id`: in the note's open tab, else by a
   * save checked against the text it was changed from. Throws when the block is gone or the save is refused.
   */
  addBlockId(path: string, block: NoteBlock, id: string): Promise<void>;
  /** Ctrl/Cmd+click on `[[target#heading]]` in the note at `fromPath`. */
  followLink(target: string, heading: string | null, fromPath: string): void;
  /** Stores an image for the note at `notePath`; answers the name `![[…]]` embeds, or throws a clear error. */
  storeImage(notePath: string, file: File): Promise<string>;
  /** Reports a refusal (a file too large or not an image). */
  fail(err: unknown): void;
}

export const editorTools: { current: EditorTools | null } = { current: null };
