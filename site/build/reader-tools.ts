// The reader's tools on an article, in both layouts (CONTRACT §12): the table of contents
// here; each is made from the note and what the model indexed once per derivation, never
// by reading the rest of the vault per page.
import type { NoteRecord } from '../../shared/model/note-record.ts';

export interface TocEntry {
  id: string;
  text: string;
  /** 1 for the shallowest heading listed, deeper ones indented under it. */
  depth: number;
}

/** A note's table of contents: its headings but the one its title came from, when three or more remain. */
export function tocOf(note: NoteRecord): TocEntry[] | null {
  const headings = note.headings.filter((h) => h.id !== note.titleId);
  if (headings.length < 3) return null;
  const top = Math.min(...headings.map((h) => h.level));
  return headings.map((h) => ({ id: h.id, text: h.text, depth: h.level - top + 1 }));
}
