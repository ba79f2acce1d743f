// What the editor needs from the rest of the app, handed in once at start so
// the editor modules import nothing of the app: the vault's notes for `[[` suggestions,
// a note's headings, following a link, and storing a pasted image.
import type { Heading, NoteMeta } from '../types.ts';

export interface EditorTools {
  /** The vault's notes, as the tree last read them. */
  notes(): NoteMeta[];
  /** The headings of a note (its own are read from the editor). */
  headings(path: string): Promise<Heading[]>;
  /** Ctrl/Cmd+click on `[[target#heading]]` in the note at `fromPath`. */
  followLink(target: string, heading: string | null, fromPath: string): void;
  /** Stores an image for the note at `notePath`; answers the name `![[…]]` embeds, or throws a clear error. */
  storeImage(notePath: string, file: File): Promise<string>;
  /** Reports a refusal (a file too large or not an image). */
  fail(err: unknown): void;
}

export const editorTools: { current: EditorTools | null } = { current: null };
