// spec 8, D.7: the sitemap holds at most 50,000 addresses, newest kept, with an
// XML comment when cut. 50,010 published notes are made into records as a read of
// their files makes them, then the real model and plan, and only the sitemap is rendered by
// the real template (writing and reading 50,000 files, or rendering 50,000 articles,
// would prove nothing more here).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import type { Address } from '../../shared/model/addresses.ts';
import { deriveSiteModel } from '../../shared/model/site-model.ts';
import { buildRecord } from '../../shared/model/note-record.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { defaultSettings } from '../../shared/settings.ts';
import { AttachmentIndex } from '../../site/read/attachments.ts';
import { pageWriter } from '../../site/write/write-pages.ts';
import { EleventyRunner } from '../../site/render/eleventy-runner.ts';
import { NO_EXTENSIONS } from '../../site/render/eleventy-site.ts';
import { frameSig, siteFrame } from '../../site/plan/frame.ts';
import { planSite } from '../../site/plan/plan.ts';
import { emptyRender } from '../../site/render/render-state.ts';
import type { SitemapView } from '../../site/plan/plan-outputs.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

const NOTES = 50_010;
const SCHEMA = path.resolve(import.meta.dirname, '../fixtures/blog/schema/sitemap-with-alternates.xsd');
const HOUR = 3_600_000;
const START = Date.UTC(2000, 0, 1);

afterAll(cleanupTempDirs);

describe('spec 8: sitemap cap of 50,000 addresses', () => {
  it('keeps the front page and the 49,999 newest notes, says so in a comment, and still validates', async () => {
    const root = await tempDir('vs-cap-');
    const records = Array.from({ length: NOTES }, (_, i) => {
      const text = `---\npublish: true\ndate: "${new Date(START + i * HOUR).toISOString()}"\n---\nNote ${i}.\n`;
      return buildRecord({ path: `f${Math.floor(i / 1000)}/n${i}.md` as VaultPath, text, createdMs: null, fileMs: START });
    });
    const vault = path.join(root, 'vault');
    await fs.mkdir(vault);
    const config = loadConfig({ VAULT: vault, SERVICE_DATA: path.join(root, 'data') }, []);
    const frame = siteFrame(defaultSettings(), config, 'https://cap.example');
    const model = deriveSiteModel(records, frame.model);
    const plan = planSite(model, frame, frameSig(frame), new AttachmentIndex(vault), []);
    const sitemap = plan.pages.get('/sitemap.xml' as Address)!;
    const data = emptyRender();
    data.site = { ...frame, assets: { css: '', js: '', theme: '', search: '', katex: '', mermaid: '' }, logoUrl: null, publishCss: null, snapshot: null };
    data.sitemaps.push(sitemap.view() as SitemapView);
    const out = path.join(root, 'out');
    await new EleventyRunner(NO_EXTENSIONS).render(data, pageWriter(out));
    const xml = await fs.readFile(path.join(out, 'sitemap.xml'), 'utf8');

    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
    expect(locs.length).toBe(50_000);
    expect(locs[0]).toBe('https://cap.example/');
    expect(xml).toContain('<!-- This sitemap keeps the newest 50000 addresses; 11 older notes were left out. -->');
    // Newest kept: notes 11…50009 are in, 0…10 are out.
    expect(locs[1]).toBe(`https://cap.example/f50/n${NOTES - 1}`);
    expect(locs.at(-1)).toBe('https://cap.example/f0/n11');
    expect(locs).not.toContain('https://cap.example/f0/n10');
    const file = path.join(root, 'sitemap.xml');
    await fs.writeFile(file, xml);
    execFileSync('xmllint', ['--noout', '--schema', SCHEMA, file], { stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  }, 180_000);
});
