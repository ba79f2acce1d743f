// The properties panel on an article (setting publishing.properties: off / shown): the
// note's frontmatter values as a reader sees them in Obsidian, in both layouts. Keys that
// steer publishing, or that the page already shows (the title, the tags as chips, the
// date it prints), are left out. Every value is text for the template to escape; a
// `[[link]]` in a value leads where the same link in the body would, to a published
// note only, and is plain text otherwise.
import { DATE_KEYS } from '../../shared/note/dates.ts';
import { headingAnchor } from '../../shared/note/obsidian/headings.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { INTERNAL_KEYS, MAX_ITEMS, MAX_PROPERTIES, MAX_TEXT, propertyLinks } from '../../shared/note/property-links.ts';
import { blockRef, linkShownText, parseWikiRef, writtenLinks } from '../../shared/wikilinks.ts';
import type { PageContext } from './page-context.ts';

/** Part of a value: text, a link to a published note, or a web address. */
export interface PropertyPart {
  text: string;
  url: string | null;
  external: boolean;
}

export interface PropertyView {
  key: string;
  /** One item for a single value, one per element for a list. */
  items: PropertyPart[][];
  list: boolean;
}

const WEB = /^https?:\/\/[^\s<>"]+$/i;

const cut = (s: string) => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) + '…' : s);
const plain = (text: string): PropertyPart => ({ text, url: null, external: false });

/** The frontmatter key that gave the date the page prints, if one did. */
function shownDateKey(note: NoteRecord, showDate: boolean): string | null {
  if (!showDate || note.date.source !== 'frontmatter') return null;
  return DATE_KEYS.find((k) => note.data[k] !== undefined && note.data[k] !== null) ?? null;
}

function linkParts(ctx: PageContext, note: NoteRecord, text: string): PropertyPart[] {
  const parts: PropertyPart[] = [];
  let at = 0;
  for (const link of writtenLinks(text)) {
    // An embed's `!` stays as written: a property shows a link, never the thing.
    const start = link.at + link.bang.length;
    if (start > at) parts.push(plain(text.slice(at, start)));
    const ref = parseWikiRef(link.target + link.heading + link.alias);
    const shown = ref.alias ?? linkShownText(ref.target, ref.subpath);
    const other = ref.target === '' ? null : ctx.model.resolver.resolve(ref.target, note);
    if (other && ctx.model.isVisible(other)) {
      const block = blockRef(ref.subpath);
      const anchor = block !== null ? `#^${encodeURIComponent(block)}` : ref.subpath.length ? headingAnchor(other.headings, ref.subpath) : '';
      parts.push({ text: shown, url: ctx.url(ctx.addressOf(other)) + anchor, external: false });
    } else parts.push(plain(shown));
    at = link.at + link.length;
  }
  if (at < text.length) parts.push(plain(text.slice(at)));
  return parts;
}

function valueParts(ctx: PageContext, note: NoteRecord, value: unknown): PropertyPart[] | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : [plain(ctx.fmt.date(value.getTime()))];
  if (typeof value === 'string') {
    const text = cut(value.trim());
    if (text === '') return null;
    if (WEB.test(text)) return [{ text, url: text, external: true }];
    return linkParts(ctx, note, text);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return [plain(String(value))];
  // A nested map or list inside a list: shown as its YAML-like JSON text, never as markup.
  return [plain(cut(JSON.stringify(value) ?? ''))];
}

/** The panel's rows, or [] when the setting is off or nothing is left to show. */
export function propertiesOf(ctx: PageContext, note: NoteRecord, showDate: boolean): PropertyView[] {
  if (!ctx.frame.properties) return [];
  const dateKey = shownDateKey(note, showDate);
  const rows: PropertyView[] = [];
  for (const [key, value] of Object.entries(note.data)) {
    if (rows.length === MAX_PROPERTIES) break;
    if (INTERNAL_KEYS.has(key.toLowerCase()) || key === dateKey) continue;
    if (Array.isArray(value)) {
      const items = value.slice(0, MAX_ITEMS).map((v) => valueParts(ctx, note, v)).filter((p): p is PropertyPart[] => p !== null);
      if (items.length) rows.push({ key, items, list: true });
    } else {
      const parts = valueParts(ctx, note, value);
      if (parts) rows.push({ key, items: [parts], list: false });
    }
  }
  return rows;
}

/** The notes the panel links to: its rows change when one of them does. */
export function propertyTargets(ctx: PageContext, note: NoteRecord): NoteRecord[] {
  if (!ctx.frame.properties) return [];
  const out: NoteRecord[] = [];
  for (const { target } of propertyLinks(note.data)) {
    const other = ctx.model.resolver.resolve(target, note);
    if (other) out.push(other);
  }
  return out;
}

/** What a page's panel shows, as a string for its signature. */
export function propertiesSig(ctx: PageContext, note: NoteRecord, showDate: boolean): string {
  const rows = propertiesOf(ctx, note, showDate);
  return rows.length ? JSON.stringify(rows) : '';
}
