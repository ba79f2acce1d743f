// A static snapshot as static hosts serve it (docs/deploy/README.md): under a path its
// stylesheets find their fonts; it links nothing it does not hold (no Sign in, the custom.css
// every page links is there); a page that is a folder too is also that folder's index; and
// --strict refuses a build without the site's address.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';
import { cli } from '../helpers/cli.ts';

afterAll(cleanupTempDirs);

const WARNINGS_VAULT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/warnings/vault');

async function buildWarnings() {
  const root = await tempDir('vs-hosts-');
  const out = path.join(root, 'site');
  const res = await cli(['build', '--vault', WARNINGS_VAULT, '--data', path.join(root, 'data'), '--out', out, '--site-url', 'https://w.example']);
  return { ...res, out };
}

describe('a static snapshot on a static host', () => {
  it("a stylesheet's own addresses are relative to it: KaTeX's fonts are found under a path too", async () => {
    const root = await tempDir('vs-cli-');
    await writeFiles(path.join(root, 'vault'), { 'Math.md': '---\npublish: true\n---\nInline $x^2$.\n' });
    const res = await cli(['build', '--vault', path.join(root, 'vault'), '--data', path.join(root, 'data'), '--out', path.join(root, 'site'), '--site-url', 'https://owner.github.io/notes']);
    expect(res.code, res.stderr).toBe(0);
    const out = path.join(root, 'site');
    const files = (await fs.readdir(out, { recursive: true })) as string[];
    const katex = await fs.readFile(path.join(out, files.find((f) => /^_s\/katex\.\w+\.css$/.test(f))!), 'utf8');
    expect(katex).toMatch(/src:url\(katex\/KaTeX_Main-Regular\.\w+\.woff2\)/);
    expect(katex).not.toMatch(/url\(\//);
    for (const font of katex.matchAll(/url\((katex\/[^)]+)\)/g)) expect(files).toContain(`_s/${font[1]}`);
  });

  it('a static host gets no Sign in link, the custom.css the pages link by its content (none while empty), and a topic page also as its folder\'s index', async () => {
    const res = await buildWarnings();
    expect(res.code, res.stderr).toBe(0);
    const home = await fs.readFile(path.join(res.out, 'index.html'), 'utf8');
    expect(home).not.toContain('s-signin');
    expect(home).not.toContain('/admin/');
    expect(home).not.toMatch(/<link[^>]+custom\.css/);
    expect(await fs.readFile(path.join(res.out, 'custom.css'), 'utf8')).toBe('');
    // Topics with feeds: each page is a file beside a folder of its own.
    const root = await tempDir('vs-cli-');
    await writeFiles(path.join(root, 'vault'), { 'Post.md': '---\npublish: true\ndate: 2026-01-02\ntags: [alpha, alpha/beta]\n---\nA post.\n' });
    const tagged = await cli(['build', '--vault', path.join(root, 'vault'), '--data', path.join(root, 'data'), '--out', path.join(root, 'site'), '--site-url', 'https://w.example']);
    expect(tagged.code, tagged.stderr).toBe(0);
    const files = (await fs.readdir(path.join(root, 'site'), { recursive: true })) as string[];
    expect(files).toContain('topic/alpha/index.html');
    const topic = files.find((f) => /^topic\/[^/]+\.html$/.test(f) && files.includes(f.replace(/\.html$/, '/feed.xml')))!;
    const site = path.join(root, 'site');
    expect(await fs.readFile(path.join(site, topic.replace(/\.html$/, '/index.html')), 'utf8')).toBe(await fs.readFile(path.join(site, topic), 'utf8'));
    // The designer's stylesheet in the data folder is the one written, and linked by its content.
    const other = await tempDir('vs-cli-');
    const css = 'body { color: rebeccapurple; }\n';
    await writeFiles(path.join(other, 'data'), { 'custom.css': css });
    const styled = await cli(['build', '--vault', WARNINGS_VAULT, '--data', path.join(other, 'data'), '--out', path.join(other, 'site'), '--site-url', 'https://w.example']);
    expect(styled.code, styled.stderr).toBe(0);
    expect(await fs.readFile(path.join(other, 'site', 'custom.css'), 'utf8')).toBe(css);
    const link = `<link rel="stylesheet" href="/custom.css?v=${createHash('sha256').update(css).digest('hex').slice(0, 12)}">`;
    expect(await fs.readFile(path.join(other, 'site', 'index.html'), 'utf8')).toContain(link);
    // A CI build with a fresh data folder takes the stylesheet travelling with the vault's settings in .service/.
    const travelled = await tempDir('vs-cli-');
    await writeFiles(path.join(travelled, 'vault'), { 'Post.md': '---\npublish: true\ndate: 2026-01-02\n---\nA post.\n', '.service/settings.json': '{}\n', '.service/custom.css': css });
    const ci = await cli(['build', '--vault', path.join(travelled, 'vault'), '--data', path.join(travelled, 'data'), '--out', path.join(travelled, 'site'), '--site-url', 'https://w.example']);
    expect(ci.code, ci.stderr).toBe(0);
    expect(await fs.readFile(path.join(travelled, 'site', 'custom.css'), 'utf8')).toBe(css);
    expect(await fs.readFile(path.join(travelled, 'site', 'index.html'), 'utf8')).toContain(link);
  });

  it('--strict without SITE_URL fails: the feed, sitemap and SEO tags need the address; nothing is written', async () => {
    const root = await tempDir('vs-cli-');
    const res = await cli(['build', '--vault', WARNINGS_VAULT, '--data', path.join(root, 'data'), '--out', path.join(root, 'site'), '--strict'], { SITE_URL: '' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('SITE_URL is not set: with --strict the build fails');
    await expect(fs.stat(path.join(root, 'site'))).rejects.toThrow();
  });

  it('a flag or variable the saved settings outvote is said, not dropped in silence', async () => {
    const root = await tempDir('vs-hosts-');
    await writeFiles(path.join(root, 'vault'), { 'A.md': '---\npublish: true\n---\nA\n', '.service/settings.json': JSON.stringify({ publishing: { layout: 'blog' } }) });
    const args = ['build', '--vault', path.join(root, 'vault'), '--data', path.join(root, 'data'), '--out', path.join(root, 'site'), '--site-url', 'https://w.example'];
    const outvoted = await cli([...args, '--public-layout', 'default']);
    expect(outvoted.code, outvoted.stderr).toBe(0);
    expect(outvoted.stderr).toContain('PUBLIC_LAYOUT=default is not used: the saved settings say blog');
    const agreeing = await cli([...args, '--public-layout', 'blog']);
    expect(agreeing.code, agreeing.stderr).toBe(0);
    expect(agreeing.stderr).not.toContain('is not used');
  });

  it("a language's feed names itself by the file a static host serves, not by a query the host ignores", async () => {
    const root = await tempDir('vs-hosts-');
    await writeFiles(path.join(root, 'vault'), {
      'A.md': '---\npublish: true\ndate: 2026-01-02\ntags: [t]\n---\nAn English post.\n',
      'B.md': '---\npublish: true\ndate: 2026-01-03\nlang: ar\ntags: [t]\n---\nتدوينة عربية.\n',
    });
    await writeFiles(path.join(root, 'data'), { 'settings.json': JSON.stringify({ publishing: { languageFilter: true } }) });
    const res = await cli(['build', '--vault', path.join(root, 'vault'), '--data', path.join(root, 'data'), '--out', path.join(root, 'site'), '--site-url', 'https://owner.github.io/notes']);
    expect(res.code, res.stderr).toBe(0);
    const ar = await fs.readFile(path.join(root, 'site', 'feed-ar.xml'), 'utf8');
    expect(ar).toContain('<atom:link href="https://owner.github.io/notes/feed-ar.xml" rel="self"');
    expect(ar).toContain('<language>ar</language>');
    expect(await fs.readFile(path.join(root, 'site', 'topic/t/feed-en.xml'), 'utf8')).toContain('<atom:link href="https://owner.github.io/notes/topic/t/feed-en.xml" rel="self"');
    expect(await fs.readFile(path.join(root, 'site', 'feed.xml'), 'utf8')).toContain('<atom:link href="https://owner.github.io/notes/feed.xml" rel="self"');
    // Pages name those files, never the query.
    const home = await fs.readFile(path.join(root, 'site', 'index.html'), 'utf8');
    expect(home).toContain('hreflang="ar" title="My notes (العربية)" href="https://owner.github.io/notes/feed-ar.xml"');
    expect(await fs.readFile(path.join(root, 'site', 'topic/t.html'), 'utf8')).toContain('href="https://owner.github.io/notes/topic/t/feed-en.xml"');
    expect(home).not.toContain('?lang=');
  });
});
