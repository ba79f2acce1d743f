// Eleventy is the site's engine (CONTRACT §16). `npx @11ty/eleventy` in the project, with
// VAULT, SITE_URL and SERVICE_DATA set, writes the very snapshot `vault-service build`
// writes, file for file. An operator extends the site the Eleventy way (a theme folder
// overriding templates by name, a config function adding a filter), on the command line's
// build and the server's alike; a vault that carries an .eleventy.js, templates or data
// files has none of them run.
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRealisticVault, pngImage } from '../../scripts/bench/_realistic-vault.ts';
import { CLI_BUILD, childEnv, PROJECT_DIR, startServer, waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, treeOf, writeFiles } from '../helpers/tmp.ts';

let root: string;
let vault: string;
/** Where a vault's own code would leave its mark if it ever ran. */
let ranMarker: string;

const SITE_URL = 'https://example.org/notes';

beforeAll(async () => {
  root = await tempDir('vs-eleventy-');
  vault = path.join(root, 'vault');
  ranMarker = path.join(root, 'vault-code-ran');
  await generateRealisticVault(vault, 60, 7);
  const hostile = `export default function () { require('node:fs'); }\nimport { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(ranMarker)}, 'ran');\n`;
  await writeFiles(vault, {
    'Code.md': '---\npublish: true\ndate: 2024-03-01\n---\n# Code\n\n```js\nconst answer = 42;\n```\n\n```klingon\nqapla\n```\n\n![[photo.png]]\n',
    'مقالة.md': '---\npublish: true\ndate: 2024-03-02\nlang: ar\n---\n# مقالة\n\nنص عربي.\n',
    '.eleventy.js': hostile,
    'eleventy.config.js': hostile,
    '_data/site.js': hostile,
    '_includes/card.njk': 'VAULT CARD {{ "x" | safe }}',
    'article.njk': '---\npermalink: /vault-page.html\n---\nVAULT PAGE',
    'index.njk': 'VAULT INDEX',
  });
  await fs.writeFile(path.join(vault, 'photo.png'), pngImage(900, 600, 120));
}, 120_000);

afterAll(cleanupTempDirs);

function cliBuild(out: string, data: string, extra: Record<string, string> = {}, args: string[] = []) {
  return spawnSync(process.execPath, [...CLI_BUILD, ...args], {
    cwd: PROJECT_DIR,
    env: childEnv({ VAULT: vault, SERVICE_DATA: data, SITE_OUT: out, SITE_URL, ...extra }),
    encoding: 'utf8',
    timeout: 180_000,
  });
}

describe('npx @11ty/eleventy and vault-service build', () => {
  it('write the same snapshot, file for file, and no code of the vault runs', async () => {
    const viaEleventy = path.join(root, 'eleventy-out');
    const eleventy = spawnSync('npx', ['--no-install', '@11ty/eleventy', `--output=${viaEleventy}`], {
      cwd: PROJECT_DIR,
      env: childEnv({ VAULT: vault, SERVICE_DATA: path.join(root, 'eleventy-data'), SITE_URL }),
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(eleventy.status, eleventy.stderr + eleventy.stdout).toBe(0);
    expect(eleventy.stdout).toMatch(/\[11ty\] Wrote \d+ files/);
    const viaCli = path.join(root, 'cli-out');
    const cli = cliBuild(viaCli, path.join(root, 'cli-data'));
    expect(cli.status, cli.stderr).toBe(0);

    const a = treeOf(viaEleventy);
    const b = treeOf(viaCli);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    const differing = [...a.keys()].filter((name) => a.get(name) !== b.get(name));
    expect(differing).toEqual([]);
    // The snapshot is whole: the pages, the code highlighted at build time, the image's WebP copies, the base path.
    const code = Buffer.from(a.get('Code.html') ?? a.get('Code/index.html') ?? '', 'latin1').toString('utf8');
    expect(code).toContain('class="token keyword"');
    expect(code).toMatch(/<source[^>]+type="image\/webp"/);
    // Under a base path every link of the site's own carries it, a srcset's candidates too.
    expect(code).not.toMatch(/(?:href|src)="\/(?!notes\/|\/)/);
    const candidates = [...code.matchAll(/srcset="([^"]*)"/g)].flatMap((m) => m[1]!.split(/,\s*/));
    expect(candidates.length).toBeGreaterThan(0);
    for (const c of candidates) expect(c).toMatch(/^\/notes\/_img\//);
    expect([...a.keys()].some((name) => name.endsWith('.webp'))).toBe(true);

    expect(existsSync(ranMarker)).toBe(false);
    for (const [name, body] of a) {
      if (!name.endsWith('.html')) continue;
      const text = Buffer.from(body, 'latin1').toString('utf8');
      expect(text, name).not.toContain('VAULT CARD');
      expect(text, name).not.toContain('VAULT PAGE');
      expect(text, name).not.toContain('VAULT INDEX');
    }
    expect(a.has('vault-page.html')).toBe(false);
  }, 400_000);
});

describe('an operator extends the site the Eleventy way', () => {
  let theme: string;
  let extra: string;

  beforeAll(async () => {
    const outside = await tempDir('vs-operator-');
    theme = path.join(outside, 'theme');
    extra = path.join(outside, 'site.config.mjs');
    const card = await fs.readFile(path.join(PROJECT_DIR, 'site/templates/_includes/card.njk'), 'utf8');
    // The card overridden by name, using a filter only the operator's config adds.
    await writeFiles(theme, { '_includes/card.njk': card.replace('{{ c.title }}</a></h2>', '{{ c.title | shout }}</a></h2><p class="operator-card">themed</p>') });
    await fs.writeFile(extra, 'export default function (eleventyConfig) {\n  eleventyConfig.addFilter("shout", (text) => String(text).toUpperCase() + "!");\n}\n');
  });

  it('a theme overrides card.njk and a config function adds the filter it uses, in vault-service build', async () => {
    const out = path.join(root, 'themed-out');
    const built = cliBuild(out, path.join(root, 'themed-data'), {}, ['--theme', theme, '--eleventy-config', extra]);
    expect(built.status, built.stderr).toBe(0);
    const home = await fs.readFile(path.join(out, 'index.html'), 'utf8');
    expect(home).toContain('<p class="operator-card">themed</p>');
    expect(home).toMatch(/class="s-post-link" href="[^"]+">[^<]*[A-Z]!<\/a><\/h2>/);
  }, 200_000);

  it('and in the server, through its first build and an edit', async () => {
    const server = await startServer({ vault, data: path.join(root, 'themed-server-data'), env: { SITE_THEME: theme, SITE_ELEVENTY_CONFIG: extra, PUBLIC_LAYOUT: 'blog' } });
    try {
      const home = await (await fetch(`${server.url}/`)).text();
      expect(home).toContain('<p class="operator-card">themed</p>');
      await fs.writeFile(path.join(vault, 'Fresh.md'), '---\npublish: true\ndate: 2030-01-01\n---\n# Fresh news\n\nJust in.\n');
      let page = '';
      for (let i = 0; i < 200 && !page.includes('FRESH NEWS!'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        page = await (await fetch(`${server.url}/`)).text();
      }
      expect(page).toContain('FRESH NEWS!');
    } finally {
      await server.stop();
      await fs.rm(path.join(vault, 'Fresh.md'), { force: true });
    }
  }, 120_000);

  it('a theme changed while the server was down: the restart serves pages of the new one, not the remembered generation', async () => {
    const data = path.join(root, 'rethemed-server-data');
    const env = { SITE_THEME: theme, SITE_ELEVENTY_CONFIG: extra, PUBLIC_LAYOUT: 'blog' };
    const first = await startServer({ vault, data, env });
    try {
      expect(await (await fetch(`${first.url}/`)).text()).toContain('<p class="operator-card">themed</p>');
      await waitFor(() => fs.stat(path.join(data, 'public-site', 'generation.v8')).then(() => true, () => false));
    } finally {
      await first.stop();
    }
    const card = path.join(theme, '_includes/card.njk');
    const before = await fs.readFile(card, 'utf8');
    await fs.writeFile(card, before.replace('<p class="operator-card">themed</p>', '<p class="operator-card">rethemed</p>'));
    const server = await startServer({ vault, data, env });
    try {
      let home = '';
      for (let i = 0; i < 200 && !home.includes('rethemed'); i++) {
        home = await (await fetch(`${server.url}/`)).text();
        if (!home.includes('rethemed')) await new Promise((r) => setTimeout(r, 100));
      }
      expect(home).toContain('<p class="operator-card">rethemed</p>');
      expect(server.output()).not.toContain('serving the last site generation');
    } finally {
      await server.stop();
      await fs.writeFile(card, before);
    }
  }, 120_000);

  it('a theme or config inside the vault or the data directory is refused before anything is built', async () => {
    const out = path.join(root, 'refused-out');
    const inVault = cliBuild(out, path.join(root, 'refused-data'), { SITE_THEME: path.join(vault, '_includes') });
    expect(inVault.status).not.toBe(0);
    expect(inVault.stderr).toContain('SITE_THEME: must be outside the vault and the data directory');
    const data = path.join(root, 'refused-data');
    await writeFiles(data, { 'site.config.mjs': 'export default () => {};\n' });
    const inData = cliBuild(out, data, {}, ['--eleventy-config', path.join(data, 'site.config.mjs')]);
    expect(inData.status).not.toBe(0);
    expect(inData.stderr).toContain('--eleventy-config: must be outside the vault and the data directory');
    const missing = cliBuild(out, data, {}, ['--eleventy-config', `${extra}.missing`]);
    expect(missing.stderr).toContain('--eleventy-config: must name an existing file');
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
