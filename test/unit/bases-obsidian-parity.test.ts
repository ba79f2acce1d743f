// Bases as Obsidian's reference (obsidian-help, en/Bases) has them, where the site once
// differed: bare `this` and `file` are values equal to links to their file; one
// unsupported function or view type costs only its cells or its view, never the whole
// base; a cards view keeps its `image` setting.
import { describe, expect, it } from 'vitest';
import { readBase, type BaseSpec } from '../../shared/bases/base-file.ts';
import { RowEvaluator, type BaseRowSource } from '../../shared/bases/evaluate.ts';
import { parseExpression } from '../../shared/bases/expression.ts';
import { runView } from '../../shared/bases/query.ts';
import { BaseLink, displayText } from '../../shared/bases/values.ts';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function row(name: string, properties: Record<string, unknown> = {}, folder = 'Lore'): BaseRowSource {
  const path = folder ? `${folder}/${name}.md` : `${name}.md`;
  return { properties, file: { name: `${name}.md`, basename: name, path, folder, ext: 'md', ctime: null, mtime: null, size: 10, tags: [], links: [] } };
}

const HOST = row('Ravenhold');

function value(src: string, r: BaseRowSource, formulas: Record<string, string> = {}) {
  const parsed = new Map(Object.entries(formulas).map(([k, v]) => [k, parseExpression(v)]));
  return new RowEvaluator(r, parsed, NOW, HOST).value(parseExpression(src));
}

function spec(yaml: string): BaseSpec {
  const read = readBase(yaml);
  if (!read.ok) throw new Error(read.problem.what);
  return read.spec;
}

describe('bare `this` and `file` are values (Bases syntax: "Links can be compared to files such as file or this")', () => {
  const child = row('Drowned Chapel', { parent: '[[Ravenhold]]', title: 'The Drowned Chapel', authors: ['[[Someone]]', '[[Ravenhold]]'] });
  const orphan = row('Elsewhere', { title: 'Elsewhere' });

  it('`parent == this` holds for the note whose parent links to the host, not for a note without a parent', () => {
    expect(value('parent == this', child)).toBe(true);
    expect(value('parent == this', orphan)).toBe(false);
    expect(value('parent != this', orphan)).toBe(true);
    expect(value('author == this', orphan)).toBe(false);
  });

  it('a list contains `this`, and `this` is `this.file`', () => {
    expect(value('authors.contains(this)', child)).toBe(true);
    expect(value('list(parent).contains(this)', child)).toBe(true);
    expect(value('list(parent).contains(this)', orphan)).toBe(false);
    expect(value('this == this.file', orphan)).toBe(true);
  });

  it('bare `file` is the row\'s file: equal to `file.asLink()` and to a link naming it', () => {
    expect(value('file == file.asLink()', child)).toBe(true);
    expect(value('file == link("Drowned Chapel")', child)).toBe(true);
    expect(value('file == this', child)).toBe(false);
    expect(value('file.hasLink(this)', { ...child, file: { ...child.file, links: ['Ravenhold'] } })).toBe(true);
  });

  it('`link(file, title)` links the row\'s file, shown by its title', () => {
    expect(value('link(file, title)', child)).toEqual(new BaseLink('Lore/Drowned Chapel.md', 'The Drowned Chapel'));
    // Without a display, the file's link keeps its own.
    expect(value('link(file)', child)).toEqual(new BaseLink('Lore/Drowned Chapel.md', 'Drowned Chapel'));
  });

  it('a filter `parent == this` lists the child only', () => {
    const base = spec('views:\n  - type: table\n    filters:\n      and:\n        - parent == this\n    order: [file.name, formula.named]\nformulas:\n  named: link(file, title)\n');
    const result = runView(base, base.views[0]!, [child, orphan].map((r) => ({ source: r.file.basename, row: r })), NOW, HOST);
    expect(result.rows.map((r) => r.source)).toEqual(['Drowned Chapel']);
    expect(result.rows[0]!.cells[1]).toEqual(new BaseLink('Lore/Drowned Chapel.md', 'The Drowned Chapel'));
  });
});

describe('one unsupported part costs only itself (Obsidian shows the rest)', () => {
  it('an unsupported formula function empties that formula, and any formula reading it; the base is read', () => {
    const base = spec('formulas:\n  age: file.mtime.relative()\n  label: \'"seen " + formula.age\'\n  size2: file.size * 2\nviews:\n  - type: table\n    order: [file.name, formula.size2, formula.label]\n');
    expect(base.views[0]!.problem).toBeNull();
    // The view shows `label`, which reads `age`: the reader is told what the site lacks.
    expect(base.views[0]!.gaps).toEqual(['the function relative()']);
    const result = runView(base, base.views[0]!, [{ source: 'a', row: row('A') }], NOW, null);
    expect(result.rows[0]!.cells.map(displayText)).toEqual(['A.md', '20', '']);
  });

  it('a formula the views never show leaves no trace', () => {
    const base = spec('formulas:\n  cover: image(cover)\nviews:\n  - type: table\n    order: [file.name]\n');
    expect(base.views[0]!.gaps).toEqual([]);
  });

  it('an unsupported view type is that view\'s problem; the other views are read', () => {
    const base = spec('views:\n  - type: table\n    name: Table\n  - type: kanban\n    name: Board\n  - type: map\n    name: Places\n');
    expect(base.views.map((v) => [v.name, v.problem?.what ?? null])).toEqual([
      ['Table', null],
      ['Board', 'the kanban view'],
      ['Places', 'the map view'],
    ]);
  });

  it('a view whose filter uses what the site lacks is refused alone; the base\'s own filter still refuses the base', () => {
    const base = spec('formulas:\n  age: file.mtime.relative()\nviews:\n  - type: table\n    name: Ok\n  - type: table\n    name: Direct\n    filters: file.backlinks.map(value)\n  - type: table\n    name: Through\n    filters: formula.age == "x"\n');
    expect(base.views.map((v) => v.problem?.what ?? null)).toEqual([null, 'the function map()', 'the function relative()']);
    expect(readBase('filters: formula.age == "x"\nformulas:\n  age: file.mtime.relative()\n')).toEqual({ ok: false, problem: { kind: 'unsupported', what: 'the function relative()' } });
  });
});

describe('a cards view keeps its cover image setting (Cards view: "Image property")', () => {
  it('reads `image`, `imageFit` and `imageAspectRatio`, and gives each row the property\'s value', () => {
    const base = spec('views:\n  - type: cards\n    image: note.banner\n    imageFit: contain\n    imageAspectRatio: 0.45\n');
    const view = base.views[0]!;
    expect([view.image, view.imageFit, view.imageAspectRatio]).toEqual(['note.banner', 'contain', 0.45]);
    const result = runView(base, view, [{ source: 'a', row: row('A', { banner: '[[a.png]]' }) }, { source: 'b', row: row('B') }], NOW, null);
    expect(result.rows.map((r) => r.image)).toEqual(['[[a.png]]', null]);
  });
});
