// The reading time and the word count in Arabic count as Arabic counts: one and two have
// words of their own ("دقيقة واحدة", "دقيقتان"), three to ten the plural, eleven to 99 the
// singular accusative, a hundred the singular (test/unit/arabic-counts.test.ts has every form).
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, CLI_BUILD, PROJECT_DIR } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

// readingMinutes: about 200 words a minute.
const MINUTES: [count: number, text: string][] = [
  [1, 'دقيقة واحدة قراءة'],
  [2, 'دقيقتان قراءة'],
  [3, '3 دقائق قراءة'],
  [10, '10 دقائق قراءة'],
  [11, '11 دقيقة قراءة'],
];

// Words of a note and the meta line's count.
const WORDS: [count: number, text: string][] = [
  [1, 'كلمة واحدة'],
  [2, 'كلمتان'],
  [5, '5 كلمات'],
  [11, '11 كلمة'],
  [100, '100 كلمة'],
];

describe('the Arabic reading time', () => {
  it('takes the form of its count', async () => {
    const root = await tempDir('vs-reading-');
    const vault = path.join(root, 'vault');
    const files: Record<string, string> = {};
    for (const [count] of MINUTES) files[`Read ${count}.md`] = `---\npublish: true\ndate: 2026-01-0${(count % 9) + 1}\n---\n${'كلمة '.repeat(count * 200)}\n`;
    for (const [count] of WORDS) files[`Words ${count}.md`] = `---\npublish: true\ndate: 2026-02-0${(count % 9) + 1}\n---\n${'كلمة '.repeat(count)}\n`;
    await writeFiles(vault, files);
    const out = path.join(root, 'site');
    const res = spawnSync(process.execPath, [...CLI_BUILD], {
      cwd: PROJECT_DIR,
      env: childEnv({ VAULT: vault, SERVICE_DATA: path.join(root, 'data'), SITE_OUT: out, SITE_LANG: 'ar', BLOG_LOCALE: 'ar-u-nu-latn', SITE_URL: 'https://example.org' }),
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(res.status, res.stderr).toBe(0);
    for (const [count, text] of MINUTES) {
      const html = await fs.readFile(path.join(out, `Read-${count}.html`), 'utf8').catch(() => fs.readFile(path.join(out, `Read-${count}`, 'index.html'), 'utf8'));
      const reading = /<span class="s-reading">([^<]*)<\/span>/.exec(html)?.[1];
      expect(reading, `${count} minutes`).toBe(text);
    }
    for (const [count, text] of WORDS) {
      const html = await fs.readFile(path.join(out, `Words-${count}.html`), 'utf8');
      expect(/<span class="s-words">([^<]*)<\/span>/.exec(html)?.[1], `${count} words`).toBe(text);
    }
  });
});
