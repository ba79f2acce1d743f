// What a webmention's source says (CONTRACT §8): whether it links to the target, and its
// h-entry read with a maintained microformats2 parser: the kind (reply, like, repost or a
// plain mention), the author (name, url, photo), the text and the date. Everything here is
// another site's text: only http(s) URLs are kept, text is trimmed to a size, and nothing
// of its markup is kept (the page shows the text escaped).
import type { MentionKind } from '../../shared/comments/read.ts';
import { mf2Items } from './mf2-worker.ts';

/**
 * The most a source may hold to be read for its h-entry: elements, and microformats
 * class names among them. A real post is a few thousand elements and a few dozen such
 * classes; a source past either bound is still a mention, read as a plain one. (The parse
 * itself is bounded in time and memory too: mf2-worker.ts.)
 */
export const MAX_ELEMENTS = 8_000;
export const MAX_MF_CLASSES = 500;
const ELEMENT = /<[a-zA-Z]/g;
const CLASS_ATTR = /\bclass\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
const MF_CLASS = /(?:^|\s)(?:h|p|u|dt|e)-[a-z0-9-]+/gi;

/** Whether the parser may read `html` (both bounds kept; counted without building anything). */
export function readable(html: string): boolean {
  let elements = 0;
  ELEMENT.lastIndex = 0;
  while (ELEMENT.exec(html)) if (++elements > MAX_ELEMENTS) return false;
  let classes = 0;
  for (const m of html.matchAll(CLASS_ATTR)) {
    classes += ((m[1] ?? m[2] ?? m[3] ?? '').match(MF_CLASS) ?? []).length;
    if (classes > MAX_MF_CLASSES) return false;
  }
  return true;
}

const MAX_TEXT = 2_000;
const MAX_NAME = 120;
const MAX_URL = 2_048;

export interface ParsedMention {
  kind: MentionKind;
  author: { name: string | null; url: string | null; photo: string | null };
  content: string | null;
  publishedAt: number | null;
}

/** The same address, whatever its fragment, case of scheme and host, or a trailing slash. */
function sameUrl(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      const url = new URL(u);
      url.hash = '';
      return url.href.replace(/\/$/, '');
    } catch {
      return null;
    }
  };
  const na = norm(a);
  return na !== null && na === norm(b);
}

/** An http(s) URL of reasonable length, resolved against `base`, or null. */
function httpUrl(value: unknown, base: string): string | null {
  const raw = typeof value === 'string' ? value : value && typeof value === 'object' && 'value' in value ? (value as { value: unknown }).value : null;
  if (typeof raw !== 'string' || raw.length > MAX_URL) return null;
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function text(value: unknown, max: number): string | null {
  const raw = typeof value === 'string' ? value : value && typeof value === 'object' && 'value' in value ? (value as { value: unknown }).value : null;
  if (typeof raw !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const clean = raw.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
  if (!clean) return null;
  return clean.length > max ? clean.slice(0, max - 1).trimEnd() + '…' : clean;
}

/** True when the source's body links to `target` (a link, an image, a quoted URL in plain text). */
export function linksTo(body: string, contentType: string, sourceUrl: string, target: string): boolean {
  if (!/html|xml/i.test(contentType)) return body.includes(target);
  for (const m of body.matchAll(/\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)) {
    const value = (m[1] ?? m[2] ?? m[3] ?? '').replace(/&amp;/g, '&');
    try {
      if (sameUrl(new URL(value, sourceUrl).href, target)) return true;
    } catch {
      /* not a URL */
    }
  }
  return false;
}

type Props = Record<string, unknown[]>;
interface Item {
  type: string[];
  properties: Props;
  children?: Item[];
}

function isItem(v: unknown): v is Item {
  return typeof v === 'object' && v !== null && Array.isArray((v as Item).type) && typeof (v as Item).properties === 'object';
}

function firstEntry(items: Item[]): Item | null {
  for (const item of items) {
    if (item.type.includes('h-entry')) return item;
    const inner = firstEntry(item.children ?? []);
    if (inner) return inner;
  }
  return null;
}

function refersTo(values: unknown[] | undefined, target: string, base: string): boolean {
  return (values ?? []).some((v) => {
    const url = isItem(v) ? httpUrl(v.properties.url?.[0], base) : httpUrl(v, base);
    return url !== null && sameUrl(url, target);
  });
}

function authorOf(entry: Item | null, items: Item[], base: string): ParsedMention['author'] {
  const author = entry?.properties.author?.[0] ?? items.find((i) => i.type.includes('h-card'));
  if (isItem(author)) {
    return { name: text(author.properties.name?.[0], MAX_NAME), url: httpUrl(author.properties.url?.[0], base), photo: httpUrl(author.properties.photo?.[0], base) };
  }
  if (typeof author === 'string') {
    const url = httpUrl(author, base);
    return url && /^https?:/i.test(author.trim()) ? { name: null, url, photo: null } : { name: text(author, MAX_NAME), url: null, photo: null };
  }
  return { name: null, url: null, photo: null };
}

/** The source's h-entry (or nothing of it) as a mention of `target`. */
export async function parseMention(html: string, sourceUrl: string, target: string): Promise<ParsedMention> {
  // Counted here first: a source past the bounds is not even handed to the parser's thread.
  const items = ((readable(html) ? await mf2Items(html, sourceUrl) : null) ?? []) as Item[];
  const entry = firstEntry(items);
  const p = entry?.properties ?? {};
  const kind: MentionKind = refersTo(p['in-reply-to'], target, sourceUrl)
    ? 'reply'
    : refersTo(p['like-of'], target, sourceUrl)
      ? 'like'
      : refersTo(p['repost-of'], target, sourceUrl)
        ? 'repost'
        : 'mention';
  const published = typeof p.published?.[0] === 'string' ? Date.parse(p.published[0] as string) : NaN;
  const content = text(p.content?.[0], MAX_TEXT) ?? text(p.summary?.[0], MAX_TEXT) ?? (kind === 'mention' ? text(p.name?.[0], MAX_TEXT) : null);
  return {
    kind,
    author: authorOf(entry, items, sourceUrl),
    content: kind === 'like' || kind === 'repost' ? null : content,
    publishedAt: Number.isFinite(published) ? published : null,
  };
}
