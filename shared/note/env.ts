// What the renderer is given and what parsing leaves behind, for one note.
import type { WikiRef } from '../wikilinks.ts';
import type { HeadingInfo } from './obsidian/headings.ts';
import type { Slot } from './slots.ts';
import type { ImageView } from './picture.ts';
import type { RenderSpent } from './render-budget.ts';

export interface NoteLink {
  /** Wire address of the note (percent-encoded), without an anchor. */
  href: string;
  title: string;
  /** The note's headings, so `[[Note#A#B]]` finds the id of B under A. */
  headings?: HeadingInfo[];
}

/** An embed as the renderer hands it to the host: where it is written, when known. */
export interface EmbedRef extends WikiRef {
  /** The line of its note (as parsed) the embed is written on. */
  line?: number;
}

/** A note being rendered on a page: the page's own, then each one embedded in the one before. */
export interface EmbedLevel {
  /** The note's vault path. */
  note: string;
  /** The line of the note before holding the embed that shows this one (-1: the page's own note, or not known). */
  line: number;
}

/** State shared by a page and everything embedded in it (one page, one set of ids). */
export interface EmbedFrame {
  /** Ids already used on the page: an embedded heading takes a free one. */
  ids: Set<string>;
  /** The notes being rendered, the page's first: an embed that would show one on the way to it again stops (markdown.ts). */
  stack: EmbedLevel[];
  /** Embeds rendered so far on the page (footnote ids of each are their own; embed-budget.ts caps them). */
  count: number;
  /** Characters of embedded notes parsed so far on the page (embed-budget.ts); none yet when absent. */
  text?: number;
  /** Characters of HTML the page's embeds made so far (embed-budget.ts), nested ones counted again in theirs. */
  html?: number;
  /** Images written so far on the page (picture.ts: the first one near the top loads at once). */
  images?: number;
  /** Characters of the page's body before the slot being filled. */
  at?: number;
  /** Embeds left out for nesting too deep or in a cycle: what holds one depends on where it sits, so it is never reused elsewhere. */
  cut?: number;
}

export interface RenderLinks {
  /** A visible note for a link target, or null (the link renders as plain text). */
  note(target: string): NoteLink | null;
  /** A published attachment's wire address for an embed or link target, or null. */
  attachment(target: string): string | null;
  /** An embedded image's original, size and smaller copies (picture.ts); without it, the original alone. */
  image?(target: string): ImageView | null;
  /** The topic page of an inline tag, or null (then the tag is plain text). */
  tag?(tag: string): string | null;
  /**
   * The HTML of an embedded note or section (`![[Note#Heading]]`), or null when
   * nothing of it may be shown (missing, unpublished, a cycle). Without this the
   * embed is shown as a link (the admin's revision view).
   */
  embed?(ref: EmbedRef, frame: EmbedFrame): string | null;
  /** A ```base block's views (the site's Bases), or null; without it the block shows as code. */
  base?(source: string): string | null;
  /** An embedded base or canvas (`![[x.base]]`, `![[x.base#View]]`: `subpath` names the view) in place, or null; without it, a link to it. */
  document?(target: string, subpath?: readonly string[]): string | null;
}

export interface NoteEnv {
  links?: RenderLinks;
  /** While rendering block by block (raw-islands.ts): each piece of raw HTML written, in order. */
  rawParts?: string[];
  /** Filled by parsing: the note's headings with their ids. */
  headings?: HeadingInfo[];
  /** The page this note is rendered into, when it is embedded. */
  frame?: EmbedFrame;
  /** markdown-it-footnote's prefix for footnote ids (embedded notes get their own). */
  docId?: string;
  /** Preparing: what depends on the vault becomes a hole, its slot kept here (slots.ts). */
  holes?: Slot[];
  /** The formulas rendered and the code coloured so far (render-budget.ts). */
  spent?: RenderSpent;
}
