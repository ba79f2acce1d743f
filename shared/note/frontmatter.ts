// Splits a note into its frontmatter and body (spec 2.4), the YAML read by gray-matter's
// engine (matter() itself, called without options, would cache every input string forever).
// A malformed block never throws: the note is treated as having no frontmatter and
// the problem is returned (the build reports it once, naming the note: build-warnings.ts).
import matter from 'gray-matter';
import { simpleYaml } from './simple-yaml.ts';

export type Frontmatter = Record<string, unknown>;

export interface ParsedNote {
  data: Frontmatter;
  body: string;
  /** The raw YAML text of the block (for values YAML would mangle, such as a zero-padded `id`). */
  raw: string;
  /** Why the block was ignored, when it was. */
  problem: string | null;
}

const BLOCK = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;
/** How many characters of `text` its frontmatter block takes (0: none). */
export const frontmatterLength = (text: string): number => BLOCK.exec(text)?.[0].length ?? 0;
// A `.tex` note keeps the same keys in a leading comment block: `% ---` … `% ---`.
const TEX_BLOCK = /^%[ \t]*---[ \t]*\r?\n((?:%.*\r?\n)*?)%[ \t]*---[ \t]*(?:\r?\n|$)/;

function isPlainObject(v: unknown): v is Frontmatter {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

// gray-matter's own YAML engine (js-yaml's safe schema), called on the block we found:
// wrapping the block in delimiters again for matter() parsed the same YAML at twice the cost.
const yamlEngine = (matter as unknown as { engines: { yaml: { parse(yaml: string): unknown } } }).engines.yaml;

/**
 * Most values a block may hold once YAML's aliases are expanded. A few hundred bytes of
 * nested aliases (`a1: [*a0, *a0, …]`, …) stand for billions of values, and every reader
 * of a field walks them expanded: such a block is refused as malformed.
 */
export const MAX_FRONTMATTER_VALUES = 20_000;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Walks the parsed block as its readers will, expanded, counting values (refusing past
 * the bound), and makes every string well formed: YAML's `"\ud800"` escape yields a lone
 * surrogate that no URL or file name can hold.
 */
function checkValues(root: unknown): void {
  let left = MAX_FRONTMATTER_VALUES;
  const visit = (value: unknown): unknown => {
    if (--left < 0) throw new Error(`the block holds more than ${MAX_FRONTMATTER_VALUES} values once its YAML aliases are expanded`);
    if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\uFFFD');
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = visit(value[i]);
    } else if (isPlainObject(value)) {
      for (const key of Object.keys(value)) {
        const next = visit(value[key]);
        if (next !== value[key]) Object.defineProperty(value, key, { value: next, enumerable: true, writable: true, configurable: true });
      }
    }
    return value;
  };
  visit(root);
}

/** A YAML mapping read as frontmatter is (the same engine and bounds); throws on malformed YAML. */
export function parseYaml(yaml: string): Frontmatter {
  const data = simpleYaml(yaml) ?? yamlEngine.parse(yaml);
  checkValues(data);
  return isPlainObject(data) ? data : {};
}

const ownCopy = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

export function parseFrontmatter(text: string, notePath = 'a note'): ParsedNote {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const isTex = notePath.toLowerCase().endsWith('.tex');
  const m = isTex ? TEX_BLOCK.exec(src) : BLOCK.exec(src);
  if (!m) return { data: {}, body: src, raw: '', problem: null };
  // A copy, not a slice: the record keeps the block and its values, and a slice (or a value sliced
  // from it) would keep the whole file's text alive beside a body rewritten without its comments.
  const raw = ownCopy(isTex ? (m[1] ?? '').replace(/^%[ \t]?/gm, '') : (m[1] ?? ''));
  const body = src.slice(m[0].length);
  try {
    const value = parseYaml(raw);
    if (raw.trim() !== '' && !isPlainObject(value)) throw new Error('the block is not a list of keys');
    return { data: value, body, raw, problem: null };
  } catch (err) {
    const problem = ((err as Error).message ?? String(err)).split('\n')[0]!;
    return { data: {}, body, raw: '', problem };
  }
}

/** `text` without the spaces and tabs at its ends. */
function trimBlanks(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === ' ' || text[start] === '\t')) start++;
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  return text.slice(start, end);
}

/** The raw scalar written for `key` in the block, quotes removed (e.g. `id: 0001763…`). */
export function rawScalar(raw: string, key: string): string | null {
  // The value's spaces and tabs trimmed here, not by `[ \t]*(.*?)[ \t]*$`: that read a run of them once from each of its places.
  const m = new RegExp(`^${key}[ \\t]*:(.*)$`, 'm').exec(raw);
  if (!m) return null;
  return trimBlanks(m[1]!).replace(/^(['"])(.*)\1$/, '$2');
}

/** True when a frontmatter value is present and says yes (`true`, "true", "yes"). */
export function isTrue(value: unknown): boolean {
  if (value === true) return true;
  if (typeof value === 'string') return ['true', 'yes', 'on'].includes(value.trim().toLowerCase());
  return false;
}
