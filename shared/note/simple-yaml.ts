// The frontmatter most notes hold, read without js-yaml: lines of `key: value` whose values
// are plain words, whole numbers, dates, booleans, null, quoted text without escapes, or
// lists of those, on one line (`aliases: ["A note", b]`) or one item a line (`- a`, as
// Obsidian's properties write them). Anything else, however ordinary, answers null
// and goes to js-yaml (frontmatter.ts), so every block reads exactly as js-yaml 3 reads it:
// test/unit/simple-yaml.test.ts compares the two over thousands of generated blocks.
//
// Why: js-yaml took 25-30 µs a note in a 10,000-note build's profile (both threads, code
// still warming up: 0.27 s of 5.5 s of CPU); these lines take a few.
import type { Frontmatter } from './frontmatter.ts';

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
/** A plain scalar js-yaml reads as text, or as one of the words below. */
const WORD = /^[A-Za-z][A-Za-z0-9 ._/-]*$/;
const WHOLE = /^(?:0|[1-9][0-9]{0,14})$/;
const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const DOUBLE_QUOTED = /^"([^"\\]*)"$/;
const SINGLE_QUOTED = /^'([^']*)'$/;
/** A block list's item: its indentation and its text (`-` alone is an empty item). */
const LIST_ITEM = /^( *)-(?: (.*))?$/;
/** What js-yaml refuses anywhere in a stream (its PATTERN_NON_PRINTABLE), a BOM, a carriage return, a tab. */
const NOT_SIMPLE_TEXT = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF\uFEFF\uD800-\uDFFF\r\t]/;
/** Keys js-yaml would read as something else than their text (a boolean, null) or treat apart. */
const SPECIAL_KEYS = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL', '__proto__']);

const NOT_SIMPLE = Symbol('not simple');

function scalar(text: string, inList: boolean): unknown {
  if (WORD.test(text)) {
    if (text.endsWith(' ')) return NOT_SIMPLE;
    switch (text) {
      case 'true':
      case 'True':
      case 'TRUE':
        return true;
      case 'false':
      case 'False':
      case 'FALSE':
        return false;
      case 'null':
      case 'Null':
      case 'NULL':
        return null;
      default:
        return text;
    }
  }
  if (WHOLE.test(text)) return Number(text);
  const date = DATE.exec(text);
  if (date) return new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])));
  return inList ? NOT_SIMPLE : quoted(text);
}

/** A quoted scalar without escapes (`"…"` with no `\\`, `'…'` with no `''`), or NOT_SIMPLE. */
function quoted(text: string): unknown {
  const m = DOUBLE_QUOTED.exec(text) ?? SINGLE_QUOTED.exec(text);
  return m ? m[1] : NOT_SIMPLE;
}

/** An item of a list, on its line or between a flow list's commas: quoted, or a plain scalar. */
function item(text: string): unknown {
  return text.startsWith('"') || text.startsWith("'") ? quoted(text) : scalar(text, true);
}

/** `[a, "b c", 'd']`: its items, or NOT_SIMPLE (a nested list, a map, an empty item, an escape). */
function flowList(text: string): unknown {
  const items: unknown[] = [];
  let at = 1;
  for (;;) {
    while (text[at] === ' ') at++;
    if (text[at] === ']' && items.length === 0 && at === text.length - 1) return items;
    let end: number;
    const quote = text[at];
    if (quote === '"' || quote === "'") {
      end = text.indexOf(quote, at + 1) + 1;
      if (end === 0) return NOT_SIMPLE;
    } else {
      end = at;
      while (end < text.length && !',]["\'{}#'.includes(text[end]!)) end++;
    }
    const read = item(text.slice(at, end).trimEnd());
    if (read === NOT_SIMPLE) return NOT_SIMPLE;
    items.push(read);
    at = end;
    while (text[at] === ' ') at++;
    if (text[at] === ']') return at === text.length - 1 ? items : NOT_SIMPLE;
    if (text[at] !== ',') return NOT_SIMPLE;
    at++;
  }
}

function value(text: string): unknown {
  return text.startsWith('[') ? flowList(text) : scalar(text, false);
}

/** The block read as js-yaml reads it, or null when it is not of the simple kind. */
export function simpleYaml(block: string): Frontmatter | null {
  if (NOT_SIMPLE_TEXT.test(block)) return null;
  const data: Frontmatter = {};
  // The key written bare (`aliases:`) whose block list the next lines may hold, and their indentation.
  let list: { items: unknown[] | null; key: string; indent: number } | null = null;
  for (const line of block.split('\n')) {
    if (line === '') continue;
    const entry = list && LIST_ITEM.exec(line);
    if (entry && list) {
      const indent = entry[1]!.length;
      if (list.items === null) data[list.key] = list.items = [];
      else if (indent !== list.indent) return null;
      list.indent = indent;
      const read = entry[2] === undefined ? null : item(entry[2]);
      if (read === NOT_SIMPLE) return null;
      list.items.push(read);
      continue;
    }
    const m = KEY_LINE.exec(line);
    if (!m) return null;
    const key = m[1]!;
    if (SPECIAL_KEYS.has(key) || Object.hasOwn(data, key)) return null;
    const read = m[2] === undefined ? null : value(m[2]);
    if (read === NOT_SIMPLE) return null;
    data[key] = read;
    list = m[2] === undefined ? { items: null, key, indent: 0 } : null;
  }
  return data;
}
