// CONTRACT §12: a page's explorer is its cut of the one shared fragment. A small tree goes
// into every page whole; a big one as the page's path view, whose size does not grow with
// the vault: the root and the folders above the page open, each level cut around the way
// to the page, the rest one "more" link away on the full explorer page.
import { describe, expect, it } from 'vitest';
import { folderKey, markExplorer } from '../../site/plan/explorer.ts';
import { ABOVE_MAX, explorerFor, LEVEL_MAX, WHOLE_MAX } from '../../site/plan/explorer-view.ts';

interface Folder {
  path: string;
  folders: Folder[];
  notes: string[];
}

/** The fragment as pages/nav.njk writes it. */
function fragmentOf(root: Folder): string {
  const items = (f: Folder): string =>
    f.folders.map((d) => `<li><details data-folder="${folderKey(d.path)}"><summary><span class="s-explorer-name" id="s-folder-${folderKey(d.path)}">${d.path}</span></summary><ul>${items(d)}</ul></details></li>`).join('') +
    f.notes.map((n) => `<li><a href="/${n}">${n}</a></li>`).join('');
  return `<details class="s-explorer-fold"><summary class="s-explorer-toggle">Notes</summary>\n<nav class="s-explorer" aria-label="Notes"><ul class="s-explorer-tree" data-all="/folder" data-more="{n} more" data-number-locale="en">${items(root)}</ul></nav>\n</details>`;
}

/** A vault of `flat` notes in one folder, `nested` more in ten folders of ten, and a few at the root. */
function vault(flat: number, nested: number): Folder {
  const pad = (i: number) => String(i).padStart(6, '0');
  const big: Folder = { path: 'Flat', folders: [], notes: Array.from({ length: flat }, (_, i) => `Flat/N${pad(i)}`) };
  const deep: Folder = {
    path: 'Deep',
    notes: [],
    folders: Array.from({ length: 10 }, (_, f) => ({
      path: `Deep/F${f}`,
      notes: [],
      folders: Array.from({ length: 10 }, (_, g) => ({ path: `Deep/F${f}/G${g}`, folders: [], notes: Array.from({ length: Math.ceil(nested / 100) }, (_, i) => `Deep/F${f}/G${g}/M${pad(i)}`) })),
    })),
  };
  return { path: '', folders: [big, deep], notes: ['Home', 'About'] };
}

const here = (href: string, folders: string[]) => [folderKey(href), ...folders.map(folderKey)].join(' ');
const links = (html: string) => [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!);
const current = (html: string) => [...html.matchAll(/<a href="([^"]*)" aria-current="page"/g)].map((m) => m[1]);
const opened = (html: string) => [...html.matchAll(/<details data-folder="([^"]*)" open>/g)].map((m) => decodeURIComponent(m[1]!));

describe('a small tree', () => {
  it('goes into the page whole, the page marked and its folders open, as before', () => {
    const small = fragmentOf(vault(100, 0));
    const mark = here('/Flat/N000010', ['Flat']);
    expect(explorerFor(small, mark)).toBe(markExplorer(small, mark));
    expect(current(explorerFor(small, mark))).toEqual(['/Flat/N000010']);
    expect(explorerFor(small, '')).toBe(small);
    expect(links(small).length).toBeLessThanOrEqual(WHOLE_MAX);
  });
});

describe('a big tree: each page its path view', () => {
  const sizes = [1_500, 15_000];
  const deepNote = (i: string) => here(`/Deep/F7/G2/M${i}`, ['Deep', 'Deep/F7', 'Deep/F7/G2']);

  it('stays under the same size whatever the vault holds, flat or nested', () => {
    for (const n of sizes) {
      const fragment = fragmentOf(vault(n, n));
      expect(fragment.length).toBeGreaterThan(n * 40);
      for (const mark of [here('/Flat/N000700', ['Flat']), deepNote('000003'), '']) {
        const cut = explorerFor(fragment, mark);
        expect(Buffer.byteLength(cut), `${n} notes, ${mark}`).toBeLessThan(12_000);
        expect(links(cut).length).toBeLessThanOrEqual(3 * (LEVEL_MAX + 2) + 30);
      }
    }
  });

  it('marks the page and opens the folders above it, and only those', () => {
    const fragment = fragmentOf(vault(1_500, 1_500));
    const flat = explorerFor(fragment, here('/Flat/N000700', ['Flat']));
    expect(current(flat)).toEqual(['/Flat/N000700']);
    expect(opened(flat)).toEqual(['Flat']);
    // The level is cut around the page: its neighbours are shown, the far ends are not.
    expect(links(flat)).toContain('/Flat/N000699');
    expect(links(flat)).toContain('/Flat/N000701');
    expect(links(flat)).not.toContain('/Flat/N000000');
    expect(links(flat)).not.toContain('/Flat/N001499');
    const deep = explorerFor(fragment, deepNote('000003'));
    expect(current(deep)).toEqual(['/Deep/F7/G2/M000003']);
    expect(opened(deep)).toEqual(['Deep', 'Deep/F7', 'Deep/F7/G2']);
    // A folder off the way is closed and empty but for its link to the rest.
    expect(deep).toMatch(/<details data-folder="Flat" data-partial><summary>.*?<\/summary><ul><li class="s-explorer-more"><a href="\/folder#s-folder-Flat" data-folder="Flat">1,500 more<\/a><\/li><\/ul><\/details>/);
  });

  it('leads to the rest on the full explorer page: "N more" before and after the shown entries, counted', () => {
    const fragment = fragmentOf(vault(1_500, 1_500));
    const flat = explorerFor(fragment, here('/Flat/N000700', ['Flat']));
    const more = [...flat.matchAll(/<li class="s-explorer-more"><a href="([^"]*)" data-folder="([^"]*)">([^<]*)<\/a><\/li>/g)].map((m) => [m[1], m[3]]);
    const before = 700 - LEVEL_MAX / 2;
    expect(more).toContainEqual(['/folder#s-folder-Flat', `${before.toLocaleString('en')} more`]);
    expect(more).toContainEqual(['/folder#s-folder-Flat', `${(1_500 - before - LEVEL_MAX).toLocaleString('en')} more`]);
    // The root level's folders and notes are few: shown whole, nothing to link.
    expect(flat).not.toContain('href="/folder"');
  });

  it('a level above the page is cut shorter, around the folder on the way to it', () => {
    const root: Folder = { path: '', notes: [], folders: Array.from({ length: 100 }, (_, f) => ({ path: `F${String(f).padStart(3, '0')}`, folders: [], notes: [0, 1, 2].map((i) => `F${String(f).padStart(3, '0')}/N${i}`) })) };
    const cut = explorerFor(fragmentOf(root), here('/F050/N1', ['F050']));
    const folders = [...cut.matchAll(/<details data-folder="([^"]*)"/g)].map((m) => m[1]);
    expect(folders).toHaveLength(ABOVE_MAX);
    expect(folders).toContain('F050');
    expect(opened(cut)).toEqual(['F050']);
    expect(links(cut)).toEqual(expect.arrayContaining(['/F050/N0', '/F050/N1', '/F050/N2']));
    expect(cut).toContain(`>${50 - ABOVE_MAX / 2} more</a>`);
  });

  it('a page that is no note (a list, the search page) shows the root level, nothing current', () => {
    const fragment = fragmentOf(vault(1_500, 1_500));
    const list = explorerFor(fragment, '');
    expect(current(list)).toEqual([]);
    expect(opened(list)).toEqual([]);
    expect(links(list)).toEqual(['/folder#s-folder-Flat', '/folder#s-folder-Deep', '/Home', '/About']);
  });

  it('keeps the fragment whole where it is no explorer of ours (the blog topic row, a theme)', () => {
    const topics = '<nav class="s-topics"><a href="/">Home</a></nav>';
    expect(explorerFor(topics, '')).toBe(topics);
    const theirs = '<nav><ul class="s-explorer-tree"><li><div>odd</div></li></ul></nav>';
    expect(explorerFor(theirs, here('/x', []))).toBe(theirs);
  });
});
