// Frontmatter fields read the tolerant way an Obsidian vault writes them (spec 2.4):
// titles, tags, and `folders`/`folder` in every accepted spelling.
import { composed } from '../vault-names.ts';
import type { Frontmatter } from './frontmatter.ts';

/**
 * Whether `text` holds a template's placeholder, `{{…}}` (no `}` inside) or `<%…%>`: what
 * `/\{\{[^}]*\}\}|<%[\s\S]*?%>/` finds, in one pass (the expression read to the end of the text
 * from each of thousands of `{{` or `<%` with no close after them: 100 KB of `{{`, 3.6 s).
 */
export function holdsPlaceholder(text: string): boolean {
  // Every `{{` before the first `}` after it ends at that `}`: a placeholder when `}}`.
  for (let open = text.indexOf('{{'); open >= 0; ) {
    const close = text.indexOf('}', open + 2);
    if (close < 0) break;
    if (text.charCodeAt(close + 1) === 0x7d) return true;
    open = text.indexOf('{{', close + 1);
  }
  const open = text.indexOf('<%');
  return open >= 0 && text.indexOf('%>', open + 2) >= 0;
}

/** A frontmatter value as a list of strings: a single value, a comma list, a flow or block list. */
export function listValue(value: unknown): string[] {
  if (value === null || value === undefined || value === false) return [];
  if (Array.isArray(value)) return value.flatMap((v) => listValue(v));
  if (typeof value === 'number') return [String(value)];
  if (typeof value !== 'string') return [];
  let s = value.trim();
  // A flow list that YAML kept as a string (`"[a, b]"`).
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  return s
    .split(',')
    .map((part) => part.trim().replace(/^(['"])(.*)\1$/, '$2').trim())
    .filter((part) => part !== '' && !holdsPlaceholder(part));
}

/** A tag without its `#`, composed (vault-names.ts: one tag however its accents are stored), or null when nothing is left. */
export function cleanTag(tag: string): string | null {
  // Control characters (a YAML escape) would name a topic page's file and address.
  // eslint-disable-next-line no-control-regex
  const t = composed(tag.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim().replace(/^#+/, '').trim());
  return t === '' ? null : t;
}

/** Tags from `tags` (or `tag`): list or space/comma separated, deduplicated without regard to case. */
export function tagsOf(data: Frontmatter): string[] {
  const raw = data.tags ?? data.tag;
  const parts = typeof raw === 'string' ? raw.split(/[\s,]+/) : listValue(raw);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of parts) {
    const tag = cleanTag(String(part));
    if (!tag || holdsPlaceholder(tag)) continue;
    const key = tag.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

/**
 * Whether `tagsOf(data)` may hold more than `max` tags, answered without making them: a
 * written list of at most `max` items, none a comma list, or a text too short to hold more
 * (each tag and each separator at least one character), cannot. A full build asks this of
 * every published note for one rare warning: making the tags again took 27 ms at 10,000 notes.
 */
export function mayHoldMoreTagsThan(data: Frontmatter, max: number): boolean {
  const raw = data.tags ?? data.tag;
  if (raw === null || raw === undefined || raw === false || typeof raw === 'number' || typeof raw === 'boolean') return false;
  if (typeof raw === 'string') return raw.length > 2 * max;
  if (!Array.isArray(raw)) return false;
  return raw.length > max || raw.some((item) => Array.isArray(item) || (typeof item === 'string' && item.includes(',')));
}

/**
 * A collection address slug (spec 2.8): lowercase letters, digits and hyphens.
 * Tolerates wrong case, extra spaces and a pasted `/folder/<slug>/` or full URL.
 */
export function collectionSlug(value: string): string {
  let s = value.trim();
  const at = s.toLowerCase().lastIndexOf('/folder/');
  if (at >= 0) s = s.slice(at + '/folder/'.length);
  s = s.replace(/[?#][^]*$/, '');
  try {
    s = decodeURIComponent(s);
  } catch {
    /* keep as written */
  }
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/^#+/, '')
    .replace(/[\s_/]+/g, '-')
    .replace(/[^\p{L}\p{N}-]+/gu, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Collection memberships a note declares with `folders:` or `folder:`, as slugs. */
export function folderSlugsOf(data: Frontmatter): string[] {
  const values = [...listValue(data.folders), ...listValue(data.folder)];
  return [...new Set(values.map(collectionSlug).filter((s) => s !== ''))];
}

/** A string frontmatter value, or null (placeholders and blanks are null). */
export function textValue(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return null;
  const s = value.trim();
  return s === '' || holdsPlaceholder(s) ? null : s;
}

/** Frontmatter tags then inline tags, each tag once (the first spelling wins). */
export function mergeTags(first: string[], then: string[]): string[] {
  if (then.length === 0) return first;
  const seen = new Set(first.map((t) => t.toLowerCase()));
  const out = [...first];
  for (const tag of then) {
    const key = tag.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

/** Other names of a note (`aliases`, or the older `alias`): a list or a comma list. */
export function aliasesOf(data: Frontmatter): string[] {
  return [...new Set([...listValue(data.aliases), ...listValue(data.alias)].map((a) => a.trim()).filter((a) => a !== ''))];
}

/** Classes for the article element (`cssclasses`, or the older `cssclass`); only safe class names. */
export function cssClassesOf(data: Frontmatter): string[] {
  const raw = [data.cssclasses, data.cssclass].flatMap((v) => (typeof v === 'string' ? v.split(/[\s,]+/) : listValue(v)));
  return [...new Set(raw.map((c) => c.trim()).filter((c) => /^-?[A-Za-z_][A-Za-z0-9_-]*$/.test(c)))];
}
