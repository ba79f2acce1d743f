// The frontmatter most notes hold, read without js-yaml: lines of `key: value` whose values
// are plain words, whole numbers, dates, booleans, null, quoted text without escapes, or
// one-line lists of those (`tags: [a, b]`). Anything else, however ordinary, answers null
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
const FLOW_LIST = /^\[([^[\]{}"'#]*)\]$/;
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
  if (inList) return NOT_SIMPLE;
  const quoted = DOUBLE_QUOTED.exec(text) ?? SINGLE_QUOTED.exec(text);
  return quoted ? quoted[1] : NOT_SIMPLE;
}

function value(text: string): unknown {
  const list = FLOW_LIST.exec(text);
  if (!list) return scalar(text, false);
  if (list[1]!.trim() === '') return [];
  const items: unknown[] = [];
  for (const item of list[1]!.split(',')) {
    const read = scalar(item.trim(), true);
    if (read === NOT_SIMPLE) return NOT_SIMPLE;
    items.push(read);
  }
  return items;
}

/** The block read as js-yaml reads it, or null when it is not of the simple kind. */
export function simpleYaml(block: string): Frontmatter | null {
  if (NOT_SIMPLE_TEXT.test(block)) return null;
  const data: Frontmatter = {};
  for (const line of block.split('\n')) {
    if (line === '') continue;
    const m = KEY_LINE.exec(line);
    if (!m) return null;
    const key = m[1]!;
    if (SPECIAL_KEYS.has(key) || Object.hasOwn(data, key)) return null;
    const read = m[2] === undefined ? null : value(m[2]);
    if (read === NOT_SIMPLE) return null;
    data[key] = read;
  }
  return data;
}
