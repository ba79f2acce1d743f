// shared/note/simple-yaml.ts reads the common frontmatter without js-yaml. Whatever it
// answers must be what js-yaml 3 (gray-matter's engine) makes of the same block; whatever it
// cannot answer exactly it leaves to js-yaml (null). Thousands of generated blocks, built
// from values at the edges of YAML's plain scalars, are read both ways.
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { simpleYaml } from '../../shared/note/simple-yaml.ts';

const yaml = (matter as unknown as { engines: { yaml: { parse(text: string): unknown } } }).engines.yaml;

const KEYS = ['title', 'publish', 'date', 'tags', 'a_b', 'x-y', 'True', 'null', 'on', 'yes', '__proto__', 'constructor', '_x', '9a', 'a b', 'tags'];
const VALUES = [
  'Note 1', 'hello', 'e.g. this', 'a/b', 'my-note', 'x y ', ' lead', 'a  b', 'Note: x', 'b #c', 'a#b', 'yes', 'no', 'on', 'off', 'y', 'n', 'inf', 'NaN',
  'true', 'True', 'TRUE', 'tRue', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL', '~', '',
  '0', '7', '42', '0123', '00', '1_000', '-1', '+1', '1.5', '.5', '1e3', '.inf', '0x1F', '1:20', '123456789012345', '1234567890123456',
  '2020-01-01', '2020-02-31', '2020-1-1', '2020-01-01T10:00:00Z', '2020-01-01 10:00', '99999-01-01',
  '"quoted"', '""', '"a: b"', '"a #b"', '"a\\nb"', '"x" y', "'single'", "'it''s'", "''", "'a' # c", '"مرحبا"', 'مرحبا',
  '[a, b]', '[]', '[ ]', '[a,,b]', '[a, b,]', '[1, true, null, 2020-01-01]', '[a: b]', '["q"]', '[ x , y ]', '[a, [b]]', '[a', '{a: 1}', '[Note 1, x-y]', '[0123]',
  '&anchor x', '*alias', '!!str 1', '|', '>', '- a', '? a', '%x', '@x', '`x`',
];

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
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
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
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    for (let n = 1 + next(5); n > 0; n--) lines.push(`${KEYS[next(KEYS.length)]}: ${VALUES[next(VALUES.length)]}`);
    yield lines.join(next(6) === 0 ? '\n\n' : '\n');
  }
}

describe('simple-yaml', () => {
  it('answers exactly what js-yaml answers, or leaves the block to it', () => {
    let answered = 0;
    for (const block of blocks(4000)) {
      const fast = simpleYaml(block);
      if (fast === null) continue;
      answered++;
      const slow = jsYaml(block);
      expect(slow, block).not.toHaveProperty('error');
      expect(fast, block).toEqual((slow as { data: unknown }).data);
    }
    // It must answer a good share of them, or it saves nothing.
    expect(answered).toBeGreaterThan(500);
  });

  it('answers the common frontmatter: words, booleans, dates, numbers, lists of tags', () => {
    const block = 'title: Note 1300\npublish: true\ndate: 2020-09-27\ntags: [topic0, area5]\nweight: 3\ndraft: False\ndescription: "A note: the first"';
    expect(simpleYaml(block)).toEqual({ title: 'Note 1300', publish: true, date: new Date(Date.UTC(2020, 8, 27)), tags: ['topic0', 'area5'], weight: 3, draft: false, description: 'A note: the first' });
    expect(simpleYaml(block)).toEqual(yaml.parse(block));
  });
});
