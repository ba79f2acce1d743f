// Wikilinks as Obsidian writes them: [[Target]], [[Target|alias]], [[Target#Heading]],
// [[Target#A#B]] (heading B under A), [[Target#^block]], ![[embed]]. One reading of
// the inside of `[[…]]`, used by the renderer's inline rule, the note model, the
// admin's search and the rename that rewrites links (through note/link-places.ts). A target or heading holds no bracket
// (Obsidian allows none in a file name); the display text may hold single ones
// (`[[Paper|Smith [2020] notes]]`), never `[[` or `]]`. In a table the bar is written `\|`.
import { sameName } from './vault-names.ts';

const WIKILINK = /(!?)\[\[((?:[^\[\]|#\\\n]|\\(?!\|))*?)(#(?:[^\[\]|\\\n]|\\(?!\|))*)?(\\?\|(?:[^\[\]\n]|\[(?!\[)|\](?!\]))*)?\]\]/g;

/** A wikilink as written: `alias` with its bar (`|`, or `\|` in a table), `heading` with its `#` (target '' for a link into the same note). */
export interface WrittenLink {
  bang: string;
  target: string;
  heading: string;
  alias: string;
  at: number;
  length: number;
}

/**
 * Every wikilink of `text` in order. A display text that opens a bracket it has not closed
 * takes the `]` right after its `]]` (`[[Paper|Smith [2020]]]` reads `Smith [2020]`).
 */
export function* writtenLinks(text: string): Generator<WrittenLink> {
  for (const m of text.matchAll(WIKILINK)) {
    let alias = m[4] ?? '';
    let length = m[0].length;
    if (alias && text.charCodeAt(m.index! + length) === 0x5d /* ] */ && leavesBracketOpen(alias)) {
      alias += ']';
      length++;
    }
    yield { bang: m[1]!, target: m[2]!, heading: m[3] ?? '', alias, at: m.index!, length };
  }
}

/** A display text that opens more brackets than it closes: its link takes the `]` right after its `]]`. */
export const leavesBracketOpen = (alias: string): boolean => alias.split('[').length > alias.split(']').length;

export interface WikiLink {
  target: string;
  /** Everything after the first `#`, as written (`A#B`, `^id`), or null. */
  heading: string | null;
  alias: string | null;
  embed: boolean;
  /** Where the link starts in the text parsed, and how long it is as written. */
  at: number;
  length: number;
}

export interface WikiRef {
  /** The note or file named, as written (may be '' for a link into the same note). */
  target: string;
  /** Heading path (`A`, `B` for `#A#B`) or a single `^id` for a block. */
  subpath: string[];
  alias: string | null;
}

/** The inside of `[[…]]`. A `\|` (how a table cell writes the pipe) is the alias bar. */
export function parseWikiRef(inner: string): WikiRef {
  const text = inner.replace(/\\\|/g, '|');
  const pipe = text.indexOf('|');
  const ref = pipe >= 0 ? text.slice(0, pipe) : text;
  const alias = pipe >= 0 ? text.slice(pipe + 1).trim() : null;
  const hash = ref.indexOf('#');
  const target = (hash >= 0 ? ref.slice(0, hash) : ref).trim();
  const subpath = hash >= 0 ? ref.slice(hash + 1).split('#').map((s) => s.trim()).filter((s) => s !== '') : [];
  return { target, subpath, alias: alias === '' ? null : alias };
}

/** A block reference (`^id`) rather than a heading path. */
export function blockRef(subpath: string[]): string | null {
  const last = subpath[subpath.length - 1];
  return last && last.startsWith('^') ? last.slice(1) : null;
}

// Obsidian's attachment formats and the files vaults commonly link. Any other dot is
// read as part of a note's name (`Node.js`, `Release 2.1`, `Vue 3.x`), as Obsidian does.
const ATTACHMENT_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif webp avif svg bmp ico tif tiff heic ' +
    'mp3 wav m4a ogg oga opus flac aac 3gp webm mp4 m4v mov ogv mkv avi ' +
    'pdf epub txt csv tsv json xml yaml yml zip gz tgz 7z rar tar doc docx xls xlsx ppt pptx odt ods odp rtf ' +
    'canvas base drawio ipynb bib html htm'
  ).split(' '),
);

// Six letters at most: `canvas` is one.
const extensionOf = (target: string): string | null => /\.([a-z0-9]{1,6})$/i.exec(target)?.[1]!.toLowerCase() ?? null;

/**
 * How a link target is read before the vault is asked (the one rule for notes and
 * files, CONTRACT §7): a known attachment format names a file (`file.pdf`, `img.png`);
 * no extension, a note's own, or any other dot names a note first. A target of the
 * last kind falls back to a file of that name when no note answers (`mayNameFile`).
 */
export function isAttachmentTarget(target: string): boolean {
  const ext = extensionOf(target);
  return (ext !== null && ATTACHMENT_EXTENSIONS.has(ext)) || isDrawingTarget(target);
}

const DRAWING = /\.excalidraw(?:\.md)?$/i;

/**
 * `[[Drawing.excalidraw]]`: an Excalidraw plugin drawing (`Drawing.excalidraw.md`, its scene
 * as JSON inside). A page shows it as the picture the plugin exports beside it
 * (drawingExports), as a file; the drawing's own note is a page only when published (drawingNoteBody).
 */
export const isDrawingTarget = (target: string): boolean => DRAWING.test(target);

/**
 * The Markdown a drawing's own note (`Plan.excalidraw.md`, published) is read as: its exported
 * picture, as an embed of it shows, not the scene the plugin keeps as text. Null for any other
 * note, and for a name a link cannot hold.
 */
export function drawingNoteBody(path: string): string | null {
  return /\.excalidraw\.md$/i.test(path) && !/[[\]|#^]/.test(path) ? `![[${path.slice(0, -3)}]]\n` : null;
}

/**
 * A file's name as a list of files shows it (a base's rows): without its folders, a trailing
 * slash or a note's `.md`.
 */
export function linkTargetName(target: string): string {
  return linkTargetText(target).replace(/^.*\//, '');
}

/** A link's target as its words show it: as written, without a trailing slash (`[[advanced/]]`) or a note's `.md`. */
function linkTargetText(target: string): string {
  const written = target.replace(/(?<!\/)\/+$/, '');
  return isAttachmentTarget(written) ? written : written.replace(/\.(md|markdown)$/i, '');
}

/**
 * The words a wikilink shows when it gives none, as Obsidian shows them: the link as written
 * ("`[[Example#Details]]` displays as Example > Details", Obsidian's help; `[[Folder/Note]]` as
 * Folder/Note), a block's id without its caret. One owner for the article, its plain text, the
 * "Linked from" sentences and the properties.
 */
export function linkShownText(target: string, subpath: readonly string[]): string {
  const where = subpath.filter((s) => s !== '').map((s) => s.replace(/^\^/, ''));
  const name = linkTargetText(target);
  return [...(name ? [name] : []), ...where].join(' > ');
}

/** The pictures the plugin's auto-export writes beside a drawing, in the order a page takes one. */
export function drawingExports(target: string): string[] {
  const base = target.replace(/\.md$/i, '');
  return [`${base}.svg`, `${base}.png`, `${base}.light.svg`, `${base}.light.png`];
}

/** A target read as a note that could still be a file (`Node.js`, `data.parquet`): the fallback when no note answers. */
export function mayNameFile(target: string): boolean {
  const ext = extensionOf(target);
  return ext !== null && ext !== 'md' && ext !== 'markdown' && !ATTACHMENT_EXTENSIONS.has(ext) && !isDrawingTarget(target);
}

export function parseWikiLinks(text: string): WikiLink[] {
  const out: WikiLink[] = [];
  for (const link of writtenLinks(text)) {
    if (link.target.trim() === '') continue; // [[#Heading]]: a link inside the note itself
    out.push({
      embed: link.bang === '!',
      target: link.target.trim(),
      heading: link.heading ? link.heading.slice(1) : null,
      alias: link.alias ? link.alias.replace(/^\\?\|/, '') : null,
      at: link.at,
      length: link.length,
    });
  }
  return out;
}

/** The one link `value` is, as a whole (a frontmatter value such as `"[[Note|Shown]]"`), or null. */
export function wholeLink(value: string): WikiLink | null {
  const text = value.trim();
  const [link, more] = parseWikiLinks(text);
  return link && !more && link.at === 0 && link.length === text.length ? link : null;
}

/**
 * Link target without a note extension, compared case-insensitively as Obsidian does, and
 * in one Unicode form: a file named on macOS is often decomposed (`Cafe` + U+0301) while a
 * link typed anywhere is composed (`Café`), and the two read the same.
 */
export function linkKey(target: string): string {
  return sameName(target.replace(/\.(md|markdown)$/i, ''));
}
