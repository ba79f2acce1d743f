// Obsidian shows a single line break inside a paragraph as a break, unless the vault has
// "Strict line breaks" on (`.obsidian/app.json`), when lines join as in standard Markdown: a
// vault of hard-wrapped text. The site broke every line of such a vault's paragraphs.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { log } from '../../shared/log.ts';
import { SiteBuilder } from '../../site/build/site-builder.ts';
import { BuildThreadLink } from '../../site/build/build-thread-link.ts';
import type { BuildThreadReply } from '../../site/build/build-thread-protocol.ts';
import { VaultEntries } from '../../shared/vault-walk.ts';
import { currentKey } from '../../site/write/generation.ts';
import { notePreview } from '../../admin/ui/server/preview.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { buildVault } from '../helpers/site-build.ts';
import { startServer, waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

const NOTE = '---\npublish: true\ndate: 2024-03-01\n---\nA paragraph written\nhard-wrapped at a column.\n\n> A quote, also\n> wrapped.\n';

const build = (appJson: string | null) => buildVault('vs-line-breaks-', { 'Post.md': NOTE, ...(appJson === null ? {} : { '.obsidian/app.json': appJson }) });

describe("a vault's Obsidian line breaks", () => {
  it('by default (no setting, or off), a single line break is a break, as Obsidian shows it', async () => {
    for (const appJson of [null, '{"strictLineBreaks": false}', 'not json', '[true]']) {
      const body = await (await build(appJson)).body('Post');
      expect(body, String(appJson)).toContain('<p>A paragraph written<br>\nhard-wrapped at a column.</p>');
    }
  });

  it('with "Strict line breaks" on, lines join, on the site and in the admin\'s preview', async () => {
    const { vault, body: bodyOf } = await build('{"strictLineBreaks": true, "attachmentFolderPath": "/"}');
    const body = await bodyOf('Post');
    expect(body).toContain('<p>A paragraph written\nhard-wrapped at a column.</p>');
    expect(body).toContain('A quote, also\nwrapped.');
    expect(body).not.toContain('<br>');
    const preview = notePreview('Post.md' as VaultPath, NOTE, vault);
    expect(JSON.stringify(preview.prepared)).not.toContain('<br>');
  });

  it('the build thread of a large build reads them as the build tells it', async () => {
    const { vault, config } = await build('{"strictLineBreaks": true}');
    const notes = (await new VaultEntries(vault).notes()) as VaultPath[];
    for (const strict of [true, false]) {
      const thread = new BuildThreadLink({ config, base: '', stage: path.join(config.dataDir, `thread-stage-${strict}`), notes, readChunk: 250, strictLineBreaks: strict });
      const replies: BuildThreadReply[] = [];
      thread.on((r) => replies.push(r));
      try {
        while (!replies.some((r) => r.type === 'records' || r.type === 'failed') && !thread.lost) await thread.changed();
        const records = replies.find((r) => r.type === 'records') as Extract<BuildThreadReply, { type: 'records' }>;
        const packed = JSON.stringify(records.records);
        expect(packed).toContain('A paragraph written');
        expect(packed.includes('<br>')).toBe(!strict);
      } finally {
        thread.close();
      }
    }
  });

  it('pages and kept records made under the other setting are not taken for current by a builder started after the change', async () => {
    const { vault, config } = await build(null);
    const before = currentKey(config).code;
    await fs.mkdir(path.join(vault, '.obsidian'), { recursive: true });
    await fs.writeFile(path.join(vault, '.obsidian', 'app.json'), '{"strictLineBreaks": true}');
    // A builder or server keeps the setting it started with: the key follows it, never the file alone.
    expect(currentKey(config).code).toBe(before);
    new SiteBuilder({ config, outRoot: path.join(config.dataDir, 'out'), buildThread: false, useGit: false });
    expect(currentKey(config).code).not.toBe(before);
  });

  it('a running server follows the setting when it changes (in Obsidian, or by a pull): every page is made again, and again when it is turned off', { timeout: 60_000 }, async () => {
    const vault = path.join(await tempDir('vs-line-breaks-live-'), 'vault');
    await writeFiles(vault, { 'Post.md': NOTE, 'Other.md': NOTE.replace('date: 2024-03-01', 'date: 2024-03-02') });
    const server = await startServer({ vault, env: { PUBLIC_LAYOUT: 'blog' } });
    try {
      const page = async (address: string) => (await fetch(server.url + address)).text();
      await waitFor(async () => (await page('/Post')).includes('A paragraph written<br>'), 20_000);
      await fs.mkdir(path.join(vault, '.obsidian'), { recursive: true });
      await fs.writeFile(path.join(vault, '.obsidian', 'app.json'), '{"strictLineBreaks": true}');
      await waitFor(async () => (await page('/Post')).includes('<p>A paragraph written\nhard-wrapped'), 20_000);
      expect(await page('/Other')).toContain('<p>A paragraph written\nhard-wrapped');
      await fs.writeFile(path.join(vault, '.obsidian', 'app.json'), '{"strictLineBreaks": false}');
      await waitFor(async () => (await page('/Post')).includes('A paragraph written<br>'), 20_000);
      expect(server.output()).toContain("the vault's Strict line breaks is now on");
    } finally {
      await server.stop();
    }
  });
});
