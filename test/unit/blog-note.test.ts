// The note model both sides read: frontmatter, dates, excerpts, fields, language.
import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../shared/note/frontmatter.ts';
import { authorMs, parseDateValue, postDate } from '../../shared/note/dates.ts';
import { countWords, excerptOf, isTemplateLeftover } from '../../shared/note/excerpt.ts';
import { collectionSlug, folderSlugsOf, tagsOf } from '../../shared/note/fields.ts';
import { titleOf } from '../../shared/note/title.ts';
import { directionOf, noteLanguage, scriptLanguage } from '../../shared/note/language.ts';
import { noteAddress, encodeAddress } from '../../shared/model/addresses.ts';
import type { VaultPath } from '../../shared/vault-path.ts';

const fm = (yaml: string) => parseFrontmatter(`---\n${yaml}\n---\nbody`, 'n.md');

describe('spec 2.4: a malformed frontmatter block never breaks a note', () => {
  it('is treated as having no frontmatter and keeps the body', () => {
    const parsed = parseFrontmatter('---\ntitle: [oops\npublish: true\n---\nHello there', 'bad.md');
    expect(parsed.data).toEqual({});
    expect(parsed.body).toBe('Hello there');
    expect(parsed.problem).toMatch(/flow collection|unexpected/);
  });
  it('a note without a block is all body; an empty block is no keys', () => {
    expect(parseFrontmatter('Just text', 'a.md')).toMatchObject({ data: {}, body: 'Just text' });
    expect(parseFrontmatter('---\n---\nText', 'a.md')).toMatchObject({ data: {}, body: 'Text' });
  });
  it('a block whose YAML aliases expand past the bound is refused, at once (an alias bomb of a few hundred bytes)', () => {
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 8; i++) levels.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
    const started = Date.now();
    const parsed = parseFrontmatter(`---\npublish: true\n${levels.join('\n')}\ntags: *a8\n---\nBody`, 'bomb.md');
    // Asked first: the expanded values would take the other checks hours to walk.
    expect(parsed.problem).toMatch(/more than 20000 values/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(parsed.data).toEqual({});
    expect(parsed.body).toBe('Body');
    expect(tagsOf(parsed.data)).toEqual([]);
    // Aliases within the bound read as YAML says.
    expect(fm('base: &b [one, two]\ntags: *b').data).toEqual({ base: ['one', 'two'], tags: ['one', 'two'] });
  });
  it('lone surrogates from YAML escapes become U+FFFD, so every value is well formed', () => {
    const parsed = fm('title: "\\ud800 bad"\ntags: ["ok\\udfff"]\nnested: {deep: ["\\ud83d\\ude00 pair"]}');
    expect(parsed.data).toEqual({ title: '\uFFFD bad', tags: ['ok\uFFFD'], nested: { deep: ['\u{1F600} pair'] } });
    expect(() => encodeURIComponent(parsed.data.title as string)).not.toThrow();
  });
  it('a .tex note carries its keys in a comment block', () => {
    const parsed = parseFrontmatter('% ---\n% title: Proof\n% publish: true\n% ---\n\\section{A}', 'p.tex');
    expect(parsed.data).toEqual({ title: 'Proof', publish: true });
    expect(parsed.body).toBe('\\section{A}');
  });
});

describe('spec D.2: post dates in order of precedence', () => {
  const day = (s: string) => Date.parse(s);
  const cases: [string, string, number, string, number?][] = [
    ['bare YAML date', 'date: 2026-10-02', day('2026-10-02T00:00:00Z'), 'frontmatter'],
    ['quoted date', 'date: "2026-10-02"', day('2026-10-02T00:00:00Z'), 'frontmatter'],
    ['ISO string with time and zone', 'date: "2026-10-02T10:30:00+02:00"', day('2026-10-02T08:30:00Z'), 'frontmatter', 120],
    ['date and time without zone (read as UTC)', 'date: 2026-10-02 10:30', day('2026-10-02T10:30:00Z'), 'frontmatter'],
    ['created when date is absent', 'created: 2025-01-05', day('2025-01-05T00:00:00Z'), 'frontmatter'],
    ['published when date and created are absent', 'published: 2024-03-01', day('2024-03-01T00:00:00Z'), 'frontmatter'],
    ['date wins over created and published', 'published: 2020-01-01\ncreated: 2021-01-01\ndate: 2022-01-01', day('2022-01-01T00:00:00Z'), 'frontmatter'],
    ['an unparseable date falls through to created', 'date: "{{date}}"\ncreated: 2023-05-05', day('2023-05-05T00:00:00Z'), 'frontmatter'],
    ['a numeric id when no date key parses', 'date: soon\nid: 1763729745123', 1763729745123, 'id'],
    ['a zero-padded id', 'id: 0001763729745123', 1763729745123, 'id'],
    ['a quoted id', 'id: "1763729745123"', 1763729745123, 'id'],
  ];
  for (const [name, yaml, ms, source, zoneMin] of cases) {
    it(name, () => {
      const parsed = fm(yaml);
      expect(postDate({ data: parsed.data, raw: parsed.raw, createdMs: 42_000_000_000, fileMs: 7 })).toEqual(zoneMin ? { ms, source, zoneMin } : { ms, source });
    });
  }
  // Hugo shows the day a post's date writes, in the zone it writes (ox-hugo dates date-only posts `T00:00:00+08:00`); the site showed the UTC day, the day before.
  it('a written offset keeps its day for the pages, the moment stays the moment', () => {
    const dayOf = (yaml: string) => {
      const parsed = fm(yaml);
      const date = postDate({ data: parsed.data, raw: parsed.raw, createdMs: null, fileMs: 7 });
      return [new Date(date.ms).toISOString(), new Date(authorMs(date)).toISOString().slice(0, 10)];
    };
    expect(dayOf('date: 2023-07-22T00:00:00+08:00')).toEqual(['2023-07-21T16:00:00.000Z', '2023-07-22']);
    expect(dayOf("date: '2016-07-12 11:00:00 +1200'")).toEqual(['2016-07-11T23:00:00.000Z', '2016-07-12']);
    expect(dayOf('date: "2021-03-04T22:30:00-05:00"')).toEqual(['2021-03-05T03:30:00.000Z', '2021-03-04']);
    expect(dayOf('date: 2021-03-04T22:30:00Z')).toEqual(['2021-03-04T22:30:00.000Z', '2021-03-04']);
    expect(dayOf('date: 2021-03-04')).toEqual(['2021-03-04T00:00:00.000Z', '2021-03-04']);
    // The author's zone reads a later change too.
    const parsed = fm('date: 2023-07-22T09:00:00+08:00');
    const date = postDate({ data: parsed.data, raw: parsed.raw, createdMs: null, fileMs: 7 });
    expect(new Date(authorMs(date, Date.parse('2023-07-25T20:00:00Z'))).toISOString().slice(0, 10)).toBe('2023-07-26');
  });
  it('created.json (or git) when frontmatter has neither date nor id', () => {
    const parsed = fm('title: x\nid: abc');
    expect(postDate({ data: parsed.data, raw: parsed.raw, createdMs: 1_700_000_000_000, fileMs: 7 })).toEqual({ ms: 1_700_000_000_000, source: 'created' });
  });
  it('the file time last', () => {
    const parsed = fm('title: x');
    expect(postDate({ data: parsed.data, raw: parsed.raw, createdMs: null, fileMs: 1_600_000_000_000 })).toEqual({ ms: 1_600_000_000_000, source: 'file' });
  });
  it('rejects impossible calendar dates and small numbers', () => {
    expect(parseDateValue('2026-02-30')).toBeNull();
    expect(parseDateValue(2026)).toBeNull();
    expect(parseDateValue('tomorrow')).toBeNull();
    expect(parseDateValue('1 March 2024')).toBe(Date.UTC(2024, 2, 1));
    expect(parseDateValue('31.02.2024')).toBeNull();
    expect(parseDateValue('[[Some note]]')).toBeNull();
  });
  it('reads the dates real vaults write: dotted, a daily note\'s link, an ordinal day, a written zone', () => {
    expect(parseDateValue('15.01.2024')).toBe(Date.UTC(2024, 0, 15));
    expect(parseDateValue('[[2024-01-15]]')).toBe(Date.UTC(2024, 0, 15));
    expect(parseDateValue('[[Daily/2024-01-15|Monday]]')).toBe(Date.UTC(2024, 0, 15));
    expect(parseDateValue('Monday, January 15th 2024, 10:30:00 am')).toBe(Date.UTC(2024, 0, 15, 10, 30));
    expect(parseDateValue('2024-01-15 10:30 +0200')).toBe(Date.UTC(2024, 0, 15, 8, 30));
    expect(parseDateValue('January 15, 2024 10:30 PST')).toBe(Date.UTC(2024, 0, 15, 18, 30));
  });
  it('reads a day and time written as digits (20240117, a Zettelkasten\'s 202401171030), not as milliseconds of 1976 or of the year 2611', () => {
    expect(parseDateValue(20240117)).toBe(Date.UTC(2024, 0, 17));
    expect(parseDateValue('20240117')).toBe(Date.UTC(2024, 0, 17));
    expect(parseDateValue(202401171030)).toBe(Date.UTC(2024, 0, 17, 10, 30));
    expect(parseDateValue(20240117103005)).toBe(Date.UTC(2024, 0, 17, 10, 30, 5));
    // Epoch milliseconds stay milliseconds; digits that make no calendar moment are none.
    expect(parseDateValue(1705487400000)).toBe(1705487400000);
    expect(parseDateValue(20241317)).toBeNull();
  });
});

describe('spec 2.5: excerpt', () => {
  it('is the first real paragraph, with Markdown marks stripped', () => {
    const body = '# Title\n\nThe **first** paragraph has a [link](https://x.y), `code`, an *emphasis* and a [[Other note|wikilink]].\n\nSecond.';
    expect(excerptOf(body)).toBe('The first paragraph has a link, code, an emphasis and a wikilink.');
  });
  it('skips template leftovers: a bare timestamp and a Tags line', () => {
    const body = '2024-05-06 10:31\n\nTags: #reading #books\n\nActual prose starts here.';
    expect(excerptOf(body)).toBe('Actual prose starts here.');
    for (const line of ['2024-05-06', '2024-05-06 10:31', '10:31', 'Created: 2024-05-06 10:31', 'May 6, 2024', 'Tags: #a #b', '#a #b', 'status:: draft', '{{date}}']) {
      expect(isTemplateLeftover(line), line).toBe(true);
    }
    expect(isTemplateLeftover('In 2024 I moved.')).toBe(false);
  });
  it('skips headings, code blocks, tables, images, rules and callouts', () => {
    const body = '## Heading\n\n```js\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![[banner.png]]\n\n---\n\n> [!note] aside\n\nProse at last.';
    expect(excerptOf(body)).toBe('Prose at last.');
  });
  it('never shows a private %% comment %%', () => {
    expect(excerptOf('%% secret plan %%\n\nPublic words.')).toBe('Public words.');
  });
  it('cuts near 220 characters at a word boundary', () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const out = excerptOf(words);
    expect(out.endsWith('…')).toBe(true);
    expect(out.length).toBeLessThanOrEqual(221);
    expect(out.length).toBeGreaterThan(180);
    const kept = out.slice(0, -1);
    expect(words.startsWith(kept + ' ')).toBe(true);
  });
  it('falls back to a list when the note has no prose paragraph', () => {
    expect(excerptOf('- first item\n- second item')).toBe('first item second item');
  });
  it('counts words in prose, not in code', () => {
    expect(countWords('One two three.\n\n```\nnot counted here\n```\n\nفي البداية كانت')).toBe(6);
  });
});

describe('spec 2.4: folders / folder in every accepted spelling', () => {
  const spellings: [string, string][] = [
    ['single value under folders', 'folders: travel'],
    ['single value under folder', 'folder: travel'],
    ['comma list', 'folders: travel, Food'],
    ['flow list', 'folders: [travel, Food]'],
    ['block list', 'folders:\n  - travel\n  - Food'],
    ['pasted address and odd case', 'folders: ["/folder/Travel/", " food "]'],
  ];
  for (const [name, yaml] of spellings) {
    it(name, () => {
      const slugs = folderSlugsOf(fm(yaml).data);
      expect(slugs[0]).toBe('travel');
      if (yaml.includes('ood')) expect(slugs).toEqual(['travel', 'food']);
    });
  }
  it('collection slugs tolerate case, spaces and a pasted /folder/<slug>/', () => {
    expect(collectionSlug('  Slow Travel ')).toBe('slow-travel');
    expect(collectionSlug('/folder/slow-travel/')).toBe('slow-travel');
    expect(collectionSlug('https://blog.example/folder/Slow-Travel/')).toBe('slow-travel');
  });
});

describe('titles, tags and addresses', () => {
  it('title: frontmatter, else a leading # heading, else the file name', () => {
    expect(titleOf({ title: 'Given' }, '# Heading', 'file.md')).toBe('Given');
    expect(titleOf({ title: '{{title}}' }, '# Heading\ntext', 'file.md')).toBe('Heading');
    expect(titleOf({}, 'text', 'My file.md')).toBe('My file');
    // Up to three spaces in, a heading; four, or a tab, and it is a line of code.
    expect(titleOf({}, '\n   # Indented heading\ntext', 'file.md')).toBe('Indented heading');
    expect(titleOf({}, '\n    # Not a heading\ntext', 'file.md')).toBe('file');
    expect(titleOf({}, '\t# Not a heading', 'file.md')).toBe('file');
  });
  // A post brought from WordPress: `title: "What it&#8217;s like"` read "What it&#8217;s like" on the page, the feed and the cards.
  it('a frontmatter title\'s character references are the characters they name', () => {
    expect(titleOf({ title: 'What it&#8217;s like &#x2014; AT&amp;T &hellip;' }, '', 'f.md')).toBe('What it\u2019s like \u2014 AT&T \u2026');
    expect(titleOf({ title: 'Fish & chips &nosuch; &#0;' }, '', 'f.md')).toBe('Fish & chips &nosuch; &#0;');
    expect(titleOf({ title: '&lt;b&gt;bold&lt;/b&gt;' }, '', 'f.md')).toBe('<b>bold</b>');
  });
  it('tags: list, string, hashes removed, deduplicated without regard to case', () => {
    expect(tagsOf({ tags: ['#a', 'B', 'b'] })).toEqual(['a', 'B']);
    expect(tagsOf({ tags: 'one, two three' })).toEqual(['one', 'two', 'three']);
    expect(tagsOf({ tag: 'solo' })).toEqual(['solo']);
  });
  it('CONTRACT §6: Folder/My Note.md lives at /Folder/My-Note, percent-encoded on the wire', () => {
    expect(noteAddress('Folder/My Note.md' as VaultPath)).toBe('/Folder/My-Note');
    expect(encodeAddress(noteAddress('Posts/ملاحظات عن النشر.md' as VaultPath))).toBe(
      '/Posts/' + encodeURIComponent('ملاحظات-عن-النشر'),
    );
  });
});

describe('language of a note', () => {
  it('is told by the script', () => {
    expect(scriptLanguage('تصبح الملاحظة تدوينة')).toBe('ar');
    expect(scriptLanguage('A note becomes a post')).toBe('en');
    expect(noteLanguage({}, 'ملاحظات', 'نص عربي طويل فيه كلمات قليلة with two words')).toBe('ar');
  });
  it("counts the words a reader reads, not addresses, markup or code (a short Arabic note with links read as English)", () => {
    const body = [
      'ملاحظة قصيرة عن النشر: https://obsidian.md/publish/getting-started و www.example.com/docs/reference',
      'راسلني someone@example.com أو اقرأ [الدليل](https://help.obsidian.md/Editing+and+formatting) و [[Getting started guide|البداية]]',
      '<span class="highlight" style="color: red">مهم</span> `npm run build --production` %% a private English comment here %%',
    ].join('\n');
    expect(noteLanguage({}, 'النشر', body)).toBe('ar');
    expect(noteLanguage({}, 'Publishing', 'An English note that quotes one Arabic word, مرحبا, and https://example.com')).toBe('en');
  });
  it('tells a megabyte of hostile text at once (no part of the count scans the rest of the text from every character)', () => {
    const hostile = ['a'.repeat(1 << 20), 'x'.repeat(1 << 20) + '@', '<a'.repeat(1 << 19), '](x'.repeat(1 << 18), '[[a'.repeat(1 << 18), 'ab1.'.repeat(1 << 18) + ':'];
    for (const text of hostile) {
      const started = performance.now();
      expect(noteLanguage({}, 'عنوان', `نص ${text}`)).toBe('en');
      expect(performance.now() - started, text.slice(0, 8)).toBeLessThan(1_000);
    }
  });
  it('a Hebrew note is Hebrew, and reads right to left', () => {
    expect(noteLanguage({}, 'הערות', 'פרסום ישר מהכספת חוסך זמן, ראו https://obsidian.md/publish')).toBe('he');
    expect(directionOf(noteLanguage({}, 'הערות', 'פרסום ישר מהכספת'))).toBe('rtl');
    expect(noteLanguage({}, 'Notes', 'An English note with one Hebrew word, שלום, in it')).toBe('en');
    expect(scriptLanguage('تصبح الملاحظة تدوينة')).toBe('ar');
  });
  it('a frontmatter lang wins', () => {
    expect(noteLanguage({ lang: 'ar-EG' }, 'Title', 'English body')).toBe('ar');
  });
});
