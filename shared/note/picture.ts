// An image a note shows from the vault: the original as the <img> (what every browser can
// show, at the address it always had), its intrinsic size so nothing moves as it loads,
// and, when smaller WebP copies exist, a <picture> offering them as a srcset. Below the
// first screen it loads lazily and decodes off the main thread.
import { escapeHtml } from './escape.ts';
import type { EmbedFrame } from './env.ts';

export interface ImageView {
  /** The original's address. */
  src: string;
  /** The original's size as shown (EXIF rotation applied), when known. */
  width?: number;
  height?: number;
  /** Smaller WebP copies, narrowest first. */
  webp?: { url: string; width: number }[];
}

export interface ImageAsked {
  alt: string;
  title?: string | null;
  /** Obsidian's `|300` or `|300x200`, as written. */
  width?: string | null;
  height?: string | null;
}

/** The article column's widest (blog.css `--s-width`, 44rem): no image is shown wider. */
const COLUMN_PX = 704;
/** The page's first image loads at once when this little of the body comes before it (it is likely on the first screen). */
const FIRST_SCREEN_CHARS = 1500;

/** Whether the image about to be written loads at once, and counts it on the page. */
function loadsEagerly(frame: EmbedFrame | undefined): boolean {
  if (!frame) return false;
  const first = (frame.images ?? 0) === 0 && (frame.at ?? Infinity) < FIRST_SCREEN_CHARS;
  frame.images = (frame.images ?? 0) + 1;
  return first;
}

/** The shown size: the author's (the other side kept in proportion), else the original's. */
function shownSize(view: ImageView, asked: ImageAsked): { width: number | null; height: number | null } {
  const width = asked.width ? Number(asked.width) : null;
  const height = asked.height ? Number(asked.height) : null;
  const { width: w, height: h } = view;
  if (width && height) return { width, height };
  if (w && h) {
    if (width) return { width, height: Math.max(1, Math.round((width * h) / w)) };
    if (height) return { width: Math.max(1, Math.round((height * w) / h)), height };
    return { width: w, height: h };
  }
  return { width, height };
}

export function imageTagHtml(view: ImageView, asked: ImageAsked, frame?: EmbedFrame): string {
  const { width, height } = shownSize(view, asked);
  const img =
    `<img src="${escapeHtml(view.src)}" alt="${escapeHtml(asked.alt)}"` +
    (asked.title ? ` title="${escapeHtml(asked.title)}"` : '') +
    (width ? ` width="${width}"` : '') +
    (height ? ` height="${height}"` : '') +
    (loadsEagerly(frame) ? '' : ' loading="lazy"') +
    ' decoding="async">';
  if (!view.webp?.length) return img;
  const shown = Math.min(width ?? view.width ?? COLUMN_PX, COLUMN_PX);
  const srcset = view.webp.map((v) => `${escapeHtml(v.url)} ${v.width}w`).join(', ');
  return `<picture><source type="image/webp" srcset="${srcset}" sizes="(max-width: ${shown}px) 100vw, ${shown}px">${img}</picture>`;
}

/**
 * A srcset with each candidate's URL passed through `map`, its descriptors and separators as
 * written. HTML's reading: a URL runs to whitespace, and a comma ending it ends the candidate;
 * a candidate's descriptors run to the next comma (a data: URL keeps the commas inside it).
 */
export function mapSrcset(list: string, map: (url: string) => string): string {
  let out = '';
  let at = 0;
  while (at < list.length) {
    const start = at;
    while (at < list.length && (list[at] === ',' || /\s/.test(list[at]!))) at++;
    out += list.slice(start, at);
    if (at >= list.length) break;
    let end = at;
    while (end < list.length && !/\s/.test(list[end]!)) end++;
    const written = list.slice(at, end);
    const url = written.replace(/(?<!,),+$/, '');
    out += map(url) + written.slice(url.length);
    at = end;
    if (url.length < written.length) continue;
    const comma = list.indexOf(',', at);
    const stop = comma < 0 ? list.length : comma;
    out += list.slice(at, stop);
    at = stop;
  }
  return out;
}
