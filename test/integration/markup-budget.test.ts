// A vault note of 16 MB of the densest markup (a paragraph of one letter every three bytes)
// held 1.5 GB of tokens per 4 MB: the server's build process ran out of heap, and each new one,
// started with twice the heap, did again, up to GBs and for ever (shared/note/parse-budget.ts).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_NOTE_MARKS } from '../../shared/note/parse-budget.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

type Warnings = { warnings: { path: string; kind: string; message: string; count?: number; max?: number }[] };

describe('a note of more markup than a page reads', () => {
  let server: TestServer;
  afterAll(() => server?.stop());

  it('is read up to its budget and the rest shown as written: the build process never runs out of heap, and the site is built', { timeout: 120_000 }, async () => {
    const root = await tempDir('vs-markup-');
    const vault = path.join(root, 'vault');
    await writeFiles(vault, {
      'Other.md': '---\ntitle: Other\npublish: true\ndate: 2026-01-09\n---\nA small note.\n',
    });
    const head = '---\ntitle: Dense\npublish: true\ndate: 2026-01-10\n---\n';
    await fs.writeFile(path.join(vault, 'Dense.md'), head + 'a\n\n'.repeat(Math.floor((16 * 1024 * 1024 - head.length - 64) / 3)) + 'the end <b>as written</b>\n');
    server = await startServer({ vault, data: path.join(root, 'data') });

    const warnings = async () => (await server.admin<Warnings>('GET', '/api/site/warnings')).body?.warnings ?? [];
    const warning = (await waitFor(async () => (await warnings()).find((w) => w.path === 'Dense.md'), 90_000, 200))!;
    expect(warning).toMatchObject({ kind: 'too_much_markup', max: MAX_NOTE_MARKS });
    expect(warning.count).toBeGreaterThan(5_000_000);
    const page = await (await fetch(`${server.url}/Dense`)).text();
    expect(page).toContain('<pre class="note-rest" dir="auto">');
    expect(page).toContain('the end &lt;b&gt;as written&lt;/b&gt;');
    expect((await fetch(`${server.url}/Other`)).status).toBe(200);
    // One build process did it all: none ran out of heap and was started again.
    expect(server.output()).not.toMatch(/the site build process stopped/);
  });
});
