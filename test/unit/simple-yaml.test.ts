// shared/note/simple-yaml.ts reads the common frontmatter without js-yaml. Whatever it
// answers must be what js-yaml 3 (gray-matter's engine) makes of the same block; whatever it
// cannot answer exactly it leaves to js-yaml (null). Thousands of generated blocks, built
// from values at the edges of YAML's plain scalars, are read both ways.
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { simpleYaml } from '../../shared/note/simple-yaml.ts';
import { seeded } from '../helpers/seeded.ts';

const yaml = (matter as unknown as { engines: { yaml: { parse(text: string): unknown } } }).engines.yaml;

const KEYS = ['title', 'publish', 'date', 'tags', 'a_b', 'x-y', 'True', 'null', 'on', 'yes', '__proto__', 'constructor', '_x', '9a', 'a b', 'tags'];
const VALUES = [
  'Note 1', 'hello', 'e.g. this', 'a/b', 'my-note', 'x y ', ' lead', 'a  b', 'Note: x', 'b #c', 'a#b', 'yes', 'no', 'on', 'off', 'y', 'n', 'inf', 'NaN',
  'true', 'True', 'TRUE', 'tRue', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL', '~', '',
  '0', '7', '42', '0123', '00', '1_000', '-1', '+1', '1.5', '.5', '1e3', '.inf', '0x1F', '1:20', '123456789012345', '1234567890123456',
  '2020-01-01', '2020-02-31', '2020-1-1', '2020-01-01T10:00:00Z', '2020-01-01 10:00', '99999-01-01',
  '"quoted"', '""', '"a: b"', '"a #b"', '"a\\nb"', '"x" y', "'single'", "'it''s'", "''", "'a' # c", '"مرحبا"', 'مرحبا',
  '[a, b]', '[]', '[ ]', '[a,,b]', '[a, b,]', '[1, true, null, 2020-01-01]', '[a: b]', '["q"]', '[ x , y ]', '[a, [b]]', '[a', '{a: 1}', '[Note 1, x-y]', '[0123]',
  '["Kyx rystes"]', '["a", "b"]', '["a, b"]', "['x', 'y']", '["a" , b]', '["a"x]', '["a\\"b"]', "['it''s']", '[ "a" ]', '["a",]', '["#x", "y: z"]', '[""]', '["a"] b', "[a, 'b', \"c\"]",
  '&anchor x', '*alias', '!!str 1', '|', '>', '- a', '? a', '%x', '@x', '`x`',
];

/** Items a list one item a line holds most often (mixed with VALUES' edges). */
const ITEMS = ['a', 'Note 1', '"A note: the first"', "'b c'", '"#x"', '2020-01-01', '7', 'true', '""', '"a, b"', '"مرحبا"'];

/** What the build makes of a block: js-yaml's object, {} for any other result, or the error. */
function jsYaml(block: string): { data: unknown } | { error: true } {
  try {
    const data = yaml.parse(block);
    return { data: typeof data === 'object' && data !== null && !Array.isArray(data) && !(data instanceof Date) ? data : {} };
  } catch {
    return { error: true };
  }
}

function* blocks(count: number): Generator<string> {
  const next = seeded(7);
  for (const value of VALUES) yield `title: ${value}`;
  for (const key of KEYS) yield `${key}: x`;
  yield '';
  yield '\n\n';
  yield 'title:';
  yield 'title: ';
  yield 'title: a\r\npublish: true';
  yield 'title: a\n  nested: b';
  yield 'tags:\n  - a\n  - b';
  yield '# comment\ntitle: a';
  yield 'title: a\ttab';
  yield 'aliases:\n  - "A note"\n  - b\ntitle: x';
  yield 'aliases:\n- a\n- b';
  yield 'aliases:\n  - a\n    b';
  yield 'aliases:\n  - a\n - b';
  yield 'aliases:\n  -\n  - b';
  yield 'aliases: x\n  - b';
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    for (let n = 1 + next(5); n > 0; n--) {
      const key = KEYS[next(KEYS.length)];
      if (next(4) > 0) {
        lines.push(`${key}: ${VALUES[next(VALUES.length)]}`);
        continue;
      }
      // A list one item a line, as Obsidian's properties write them (indentation at times uneven).
      lines.push(`${key}:`);
      const indent = ' '.repeat(next(3) * 2);
      for (let k = next(4); k > 0; k--) {
        const item = next(2) === 0 ? VALUES[next(VALUES.length)] : ITEMS[next(ITEMS.length)];
        lines.push(`${next(12) === 0 ? ' ' : indent}-${next(10) === 0 ? '' : ` ${item}`}`);
      }
    }
    yield lines.join(next(6) === 0 ? '\n\n' : '\n');
  }
  // Frontmatter as notes hold it: lists of aliases and tags, mostly ordinary, at times not.
  const pick = () => (next(8) === 0 ? VALUES[next(VALUES.length)] : ITEMS[next(ITEMS.length)]);
  for (let i = 0; i < count / 4; i++) {
    const lines = ['publish: true', 'aliases:'];
    const indent = ' '.repeat(next(3) * 2);
    for (let k = next(4); k > 0; k--) lines.push(`${indent}- ${pick()}`);
    lines.push(`tags: [${Array.from({ length: next(4) }, pick).join(next(2) ? ', ' : ',')}]`);
    yield lines.join('\n');
  }
}

describe('simple-yaml', () => {
  it('answers exactly what js-yaml answers, or leaves the block to it', () => {
    let answered = 0;
    let lists = 0;
    for (const block of blocks(4000)) {
      const fast = simpleYaml(block);
      if (fast === null) continue;
      answered++;
      if (/:\n *-|\[["']/.test(block)) lists++;
      const slow = jsYaml(block);
      expect(slow, block).not.toHaveProperty('error');
      expect(fast, block).toEqual((slow as { data: unknown }).data);
    }
    // It must answer a good share of them, or it saves nothing.
    expect(answered).toBeGreaterThan(500);
    expect(lists).toBeGreaterThan(100);
  });

  it('answers the common frontmatter: words, booleans, dates, numbers, lists of tags', () => {
    const block = 'title: Note 1300\npublish: true\ndate: 2020-09-27\ntags: [topic0, area5]\nweight: 3\ndraft: False\ndescription: "A note: the first"';
    expect(simpleYaml(block)).toEqual({ title: 'Note 1300', publish: true, date: new Date(Date.UTC(2020, 8, 27)), tags: ['topic0', 'area5'], weight: 3, draft: false, description: 'A note: the first' });
    expect(simpleYaml(block)).toEqual(yaml.parse(block));
  });

  it('answers the lists Obsidian writes: quoted aliases on one line, or one item a line', () => {
    const oneLine = 'publish: true\naliases: ["Kyx rystes", "a, b"]\ntags: [tag-kai, tag-di]';
    expect(simpleYaml(oneLine)).toEqual({ publish: true, aliases: ['Kyx rystes', 'a, b'], tags: ['tag-kai', 'tag-di'] });
    const itemLines = 'aliases:\n  - "A note: the first"\n  - other\ntags:\n- a\npublish: true';
    expect(simpleYaml(itemLines)).toEqual({ aliases: ['A note: the first', 'other'], tags: ['a'], publish: true });
    for (const block of [oneLine, itemLines]) expect(simpleYaml(block)).toEqual(yaml.parse(block));
  });
});
