// A title, label, icon or description a vault note gives is repeated on other pages: a
// garden's explorer shows every note's title on every page, each note a note links lists it
// as a backlink. One note with a 1 MB title made each page of a garden 1 MB, and 300 links
// from it wrote 639 MB of pages. Such texts show cut (shared/note/shown-text.ts), and Site
// health names each.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
const MAX_TITLE_LENGTH = 250;
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

type Warnings = { warnings: { path: string; kind: string; variant?: string; value?: string; count?: number; max?: number }[] };

describe('a note whose title, label, icon or description is megabytes long', () => {
  let server: TestServer;
  afterAll(() => server?.stop());

  it('shows them cut on every page, each page stays the size of a page, and Site health names each text', { timeout: 90_000 }, async () => {
    const root = await tempDir('vs-long-texts-');
    const vault = path.join(root, 'vault');
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`Cat/N${i}.md`] = `---\npublish: true\ndate: 2026-01-${String(1 + (i % 28)).padStart(2, '0')}\n---\n\nNote ${i}.\n`;
    await writeFiles(vault, files);
    const big = 'x'.repeat(1_000_000);
    const links = Array.from({ length: 40 }, (_, i) => `[[N${i}]]`).join(' ');
    await fs.writeFile(path.join(vault, 'Big.md'), `---\npublish: true\ndate: 2026-02-01\ntitle: "${big}"\n---\n\n${links}\n`);
    const long = 'q'.repeat(200_000);
    await fs.writeFile(path.join(vault, 'Cat/Cat.md'), `---\npublish: true\ntitle: "${long}"\nlabel: "${long}"\nicon: "${long}"\ndescription: "${long}"\n---\n\nThe folder note.\n`);
    server = await startServer({ vault, data: path.join(root, 'data'), env: { PUBLIC_LAYOUT: 'default' } });

    // The whole site built: the last page to come is there.
    await waitFor(async () => (await fetch(`${server.url}/Cat/N39`)).status === 200 && (await fetch(`${server.url}/Big`)).status === 200, 60_000, 200);
    // Each note Big links shows it as a backlink, and every page the folder note in its explorer and breadcrumbs.
    for (const address of ['/Cat/N0', '/Cat/N39', '/']) {
      const page = await (await fetch(`${server.url}${address}`)).text();
      expect(page.length, address).toBeLessThan(100_000);
    }
    const n0 = await (await fetch(`${server.url}/Cat/N0`)).text();
    expect(n0).toContain(`${'x'.repeat(MAX_TITLE_LENGTH)}…`);
    expect(n0).toContain(`${'q'.repeat(MAX_TITLE_LENGTH)}…`);
    const article = await (await fetch(`${server.url}/Big`)).text();
    expect(article.length).toBeLessThan(100_000);
    expect(article).toContain(`<title>${'x'.repeat(MAX_TITLE_LENGTH)}…`);

    const warnings = async () => (await server.admin<Warnings>('GET', '/api/site/warnings')).body?.warnings ?? [];
    await waitFor(async () => (await warnings()).filter((w) => w.kind === 'text_too_long').length === 5, 60_000, 200);
    const cut = (await warnings()).filter((w) => w.kind === 'text_too_long').map((w) => [w.path, w.variant, w.value, w.count, w.max]);
    expect(cut).toEqual(
      expect.arrayContaining([
        ['Big.md', 'title', 'title', undefined, MAX_TITLE_LENGTH],
        ['Cat/Cat.md', 'title', 'title', undefined, MAX_TITLE_LENGTH],
        ['Cat/Cat.md', 'label', 'label', 200_000, MAX_TITLE_LENGTH],
        ['Cat/Cat.md', 'icon', 'icon', 200_000, 32],
        ['Cat/Cat.md', 'description', 'description', 200_000, 500],
      ]),
    );
  });
});
