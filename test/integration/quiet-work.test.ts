// What the builder leaves for a quiet moment (SiteBuilder `tidy`, asked for by builder-client.ts
// once saves pause), done from the live plan's model, a step at a time:
// - the search index's new base: after an edit the base still holds the old text's words.
//   Planning the whole site again for it held two plans at once, and a realistic 10,000-note
//   builder ran out of heap on the owner's first pause after a save;
// - the sitemaps, when an edit moved a note's lastmod: no one who saved waits on them, and a
//   sitemap of 10,000 addresses was two thirds of such an edit's pass.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { SEARCH_DIR, SEARCH_MANIFEST, type SearchManifest } from '../../shared/search/index-format.ts';
import { DELTA_SOFT } from '../../site/plan/search-index.ts';
import { SiteBuilder } from '../../site/build/site-builder.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

/** The search index's files in a site folder: file name → text. */
async function searchFiles(dir: string): Promise<Map<string, string>> {
  const out = new Map([[SEARCH_MANIFEST, await fs.readFile(path.join(dir, SEARCH_MANIFEST), 'utf8')]]);
  for (const name of await fs.readdir(path.join(dir, SEARCH_DIR))) out.set(name, await fs.readFile(path.join(dir, SEARCH_DIR, name), 'utf8'));
  return out;
}

const shardText = (files: Map<string, string>) => [...files].filter(([name]) => name.startsWith('shard.')).map(([, text]) => text).join('\n');

function builderOf(root: string, vault: string, name: string, searchBaseLaterFrom?: number): SiteBuilder {
  const config = loadConfig({ VAULT: vault, SERVICE_DATA: path.join(root, `data-${name}`), PUBLIC_LAYOUT: 'blog' }, []);
  return new SiteBuilder({ config, outRoot: path.join(root, `out-${name}`), buildThread: false, useGit: false, searchBaseLaterFrom });
}

/**
 * The quiet moment's steps until the new base is live: a step of a few tens of milliseconds
 * that ends early writes nothing and asks for the next; no plan of the site is made, and only
 * the index's files are written (no page of the site).
 */
async function tidyTheSearchBase(builder: SiteBuilder): Promise<void> {
  const plans = builder.wholePlans;
  let tidied = await builder.tidy();
  while (tidied?.tidy === true && tidied.rendered === 0) tidied = await builder.tidy();
  expect(tidied).not.toBeNull();
  expect(builder.wholePlans).toBe(plans);
  expect(tidied!.upserts.every(([address]) => address === `/${SEARCH_MANIFEST}` || address.startsWith(`/${SEARCH_DIR}/`))).toBe(true);
}

describe("a quiet moment's work", () => {
  it('brings the base up to date for an edited note in place: its old words out of the shards that held them, its new words in, without planning the site again or making a new base', async () => {
    const root = await tempDir('vs-search-tidy-');
    const vault = path.join(root, 'vault');
    const notes: Record<string, string> = {};
    for (let i = 0; i < 30; i++) notes[`Notes/N${String(i).padStart(2, '0')}.md`] = `---\npublish: true\ndate: 2024-01-${String(i + 1).padStart(2, '0')}\n---\nNote ${i} talks of zebra${i}.\n`;
    const secret = '---\npublish: true\ndate: 2024-01-08\n---\nA secret: confidentialmerger with acmecorp, zebra7.\n';
    notes['Notes/N07.md'] = secret;
    await writeFiles(vault, notes);
    for (const name of ['live', 'fresh', 'back']) await fs.mkdir(path.join(root, `data-${name}`), { recursive: true });
    const builder = builderOf(root, vault, 'live');
    const live = (await builder.full()).dir;
    const before = await searchFiles(live);
    await fs.writeFile(path.join(vault, 'Notes/N07.md'), '---\npublish: true\ndate: 2024-01-08\n---\nNothing to see here, zebra7.\n');
    await builder.apply(['Notes/N07.md']);
    expect(builder.quickPasses).toBe(1);
    // The delta serves the new text at once; the base's shards still hold the old words.
    expect(shardText(await searchFiles(live))).toContain('confidentialmerger');
    await tidyTheSearchBase(builder);
    const after = await searchFiles(live);
    expect(shardText(after)).not.toContain('confidentialmerger');
    expect(shardText(after)).not.toContain('acmecorp');
    expect(shardText(after)).toContain('"nothing"');
    // The note is in the base as it is now: no delta, nothing gone, and the files a fresh build of the same notes writes.
    const manifest = JSON.parse(after.get(SEARCH_MANIFEST)!) as SearchManifest;
    expect(manifest.delta).toEqual([]);
    expect(manifest.gone).toEqual([]);
    expect(after).toEqual(await searchFiles((await builderOf(root, vault, 'fresh').full()).dir));
    // Only the shards that held its old or new words are new files.
    const shards = (files: Map<string, string>) => new Set([...files.keys()].filter((n) => n.startsWith('shard.')));
    const held = [...before].filter(([name, text]) => name.startsWith('shard.') && /confidentialmerger|acmecorp|"secret"|"with"|"nothing"|"see"|"here"|"to"/.test(text)).map(([name]) => name);
    expect(held.some((name) => !shards(after).has(name))).toBe(true);
    for (const name of shards(before)) if (!held.includes(name)) expect(shards(after).has(name)).toBe(true);
    // Nothing more is due: the next quiet moment has no work.
    expect(await builder.tidy()).toBeNull();

    // The note set back as it was: found by its old words from the delta at once, then from the base.
    await fs.writeFile(path.join(vault, 'Notes/N07.md'), secret);
    await builder.apply(['Notes/N07.md']);
    const back = JSON.parse((await searchFiles(live)).get(SEARCH_MANIFEST)!) as SearchManifest;
    expect(back.delta.map((d) => d.text)).toEqual([expect.stringContaining('confidentialmerger')]);
    await tidyTheSearchBase(builder);
    expect(await searchFiles(live)).toEqual(await searchFiles((await builderOf(root, vault, 'back').full()).dir));
  }, 60_000);

  it('holds no copy of the base once its files are live: a patch reads its shards back from the live folder, and a shard gone from there makes a new base', async () => {
    const root = await tempDir('vs-search-read-back-');
    const vault = path.join(root, 'vault');
    const notes: Record<string, string> = {};
    for (let i = 0; i < 30; i++) notes[`Notes/N${String(i).padStart(2, '0')}.md`] = `---\npublish: true\ndate: 2024-01-${String(i + 1).padStart(2, '0')}\n---\nNote ${i} talks of zebra${i}.\n`;
    await writeFiles(vault, notes);
    for (const name of ['live', 'fresh']) await fs.mkdir(path.join(root, `data-${name}`), { recursive: true });
    const builder = builderOf(root, vault, 'live');
    const live = (await builder.full()).dir;
    await fs.writeFile(path.join(vault, 'Notes/N07.md'), '---\npublish: true\ndate: 2024-01-08\n---\nNothing to see here, okapi7.\n');
    await builder.apply(['Notes/N07.md']);
    for (const name of await fs.readdir(path.join(live, SEARCH_DIR))) if (name.startsWith('shard.')) await fs.rm(path.join(live, SEARCH_DIR, name));
    // The step that patches finds no shard to read: it fails, and the next quiet moment makes the base again.
    await expect(builder.tidy()).rejects.toThrow(/shard\./);
    await tidyTheSearchBase(builder);
    const after = await searchFiles(live);
    expect(shardText(after)).toContain('okapi7');
    expect(after).toEqual(await searchFiles((await builderOf(root, vault, 'fresh').full()).dir));
  }, 60_000);

  for (const [what, edit] of [
    ['more edited notes than the soft limit: each brought up to date in place', 'edit'],
    ['more new notes than the soft limit: a new base', 'add'],
  ] as const) {
    it(`${what}, leaving the files a fresh build writes`, async () => {
      const root = await tempDir('vs-search-rebase-');
      const vault = path.join(root, 'vault');
      const notes: Record<string, string> = {};
      const count = DELTA_SOFT.docs + 4;
      for (let i = 0; i < count + 10; i++) notes[`Notes/N${String(i).padStart(2, '0')}.md`] = `---\npublish: true\ndate: 2024-01-${String((i % 28) + 1).padStart(2, '0')}\n---\nNote ${i} talks of zebra${i}.\n`;
      await writeFiles(vault, notes);
      for (const name of ['live', 'fresh']) await fs.mkdir(path.join(root, `data-${name}`), { recursive: true });
      const builder = builderOf(root, vault, 'live');
      const live = (await builder.full()).dir;
      const changed = Object.keys(notes).slice(0, count).map((note) => (edit === 'edit' ? note : note.replace('/N', '/New')));
      for (const note of changed) await fs.writeFile(path.join(vault, note), notes[note.replace('/New', '/N')]!.replace(/talks of/, 'speaks of'));
      await builder.apply(changed);
      await tidyTheSearchBase(builder);
      const after = await searchFiles(live);
      expect((JSON.parse(after.get(SEARCH_MANIFEST)!) as SearchManifest).delta).toEqual([]);
      const made = await builderOf(root, vault, 'fresh').full();
      expect(after).toEqual(await searchFiles(made.dir));
      // None of the old base's files is left beside the new ones.
      expect([...after.keys()].sort()).toEqual([...(await searchFiles(made.dir)).keys()].sort());
    }, 60_000);
  }

  it('a first build of a large vault goes live before its search base, made at the quiet moment as a fresh build makes it', async () => {
    const root = await tempDir('vs-search-later-');
    const vault = path.join(root, 'vault');
    const notes: Record<string, string> = {};
    for (let i = 0; i < 40; i++) notes[`Notes/N${String(i).padStart(2, '0')}.md`] = `---\npublish: true\ndate: 2024-02-${String((i % 28) + 1).padStart(2, '0')}\n---\n# Part ${i}\nNote ${i} talks of quagga${i} and [[N${String((i + 1) % 40).padStart(2, '0')}]].\n`;
    notes['Draft.md'] = 'Not published: draftonlyword.\n';
    await writeFiles(vault, notes);
    for (const name of ['later', 'fresh', 'small']) await fs.mkdir(path.join(root, `data-${name}`), { recursive: true });
    // Below its threshold a first build makes the base in the pass, as a snapshot always does.
    const small = await builderOf(root, vault, 'small', 41).full();
    expect(JSON.parse(await fs.readFile(path.join(small.dir, SEARCH_MANIFEST), 'utf8')).preparing).toBeUndefined();

    const builder = builderOf(root, vault, 'later', 40);
    const first = await builder.full();
    // Live at once: every page, and a manifest that says the base is on its way, with no file of it.
    expect(first.tidy).toBe(true);
    expect(JSON.parse(await fs.readFile(path.join(first.dir, SEARCH_MANIFEST), 'utf8'))).toMatchObject({ preparing: true, docs: 0, shards: [], delta: [] });
    await expect(fs.readdir(path.join(first.dir, SEARCH_DIR))).rejects.toThrow();
    expect(first.entries!.filter(([address]) => /\/n07\/?$/i.test(address))).toHaveLength(1);
    // An edit meanwhile takes the quick pass and still says so.
    await fs.writeFile(path.join(vault, 'Notes/N07.md'), '---\npublish: true\ndate: 2024-02-08\n---\n# Part 7\nNow about okapi7 and [[N08]].\n');
    const edit = await builder.apply(['Notes/N07.md']);
    expect(builder.quickPasses).toBe(1);
    expect(edit!.tidy).toBe(true);
    expect(JSON.parse(await fs.readFile(path.join(first.dir, SEARCH_MANIFEST), 'utf8')).preparing).toBe(true);
    // The quiet moment's first step: the article showing the edited sentence in its "Linked from" (quick-pass.ts).
    expect((await builder.tidy())!.upserts.map(([address]) => address)).toEqual(['/Notes/N08']);

    await tidyTheSearchBase(builder);
    expect(await builder.tidy()).toBeNull();
    const after = await searchFiles(first.dir);
    expect(shardText(after)).toContain('okapi7');
    expect(shardText(after)).not.toContain('draftonlyword');
    // What a build that made the base in its pass writes for the same notes.
    const fresh = await builderOf(root, vault, 'fresh').full();
    expect(after).toEqual(await searchFiles(fresh.dir));
  }, 60_000);

  it("leaves the sitemap's new lastmod of an edited note to the quiet moment, and the article to no one", async () => {
    const root = await tempDir('vs-quiet-sitemap-');
    const vault = path.join(root, 'vault');
    await writeFiles(vault, { 'Notes/Old.md': '---\npublish: true\ndate: 2021-03-04\n---\nFirst text.\n', 'Notes/Other.md': '---\npublish: true\ndate: 2021-03-05\n---\nOther text.\n' });
    const old = new Date('2021-03-04T12:00:00Z');
    await fs.utimes(path.join(vault, 'Notes/Old.md'), old, old);
    await fs.mkdir(path.join(root, 'data-live'), { recursive: true });
    // What the server remembers on meeting the notes (created.json): their file time.
    await fs.writeFile(path.join(root, 'data-live', 'created.json'), JSON.stringify({ 'Notes/Old.md': old.getTime(), 'Notes/Other.md': old.getTime() }));
    const builder = builderOf(root, vault, 'live');
    const first = await builder.full();
    const sitemap = () => fs.readFile(path.join(first.dir, 'sitemap.xml'), 'utf8');
    expect(await sitemap()).toMatch(/\/Notes\/Old<\/loc><lastmod>2021-03-04T/);

    await fs.writeFile(path.join(vault, 'Notes/Old.md'), '---\npublish: true\ndate: 2021-03-04\n---\nEdited text.\n');
    const edit = await builder.apply(['Notes/Old.md']);
    expect(builder.quickPasses).toBe(1);
    expect(edit!.upserts.map(([address]) => address)).toContain('/Notes/Old');
    expect(edit!.upserts.map(([address]) => address)).not.toContain('/sitemap.xml');
    expect(edit!.tidy).toBe(true);
    expect(await sitemap()).toMatch(/\/Notes\/Old<\/loc><lastmod>2021-03-04T/);

    const quiet = await builder.tidy();
    expect(quiet!.upserts.map(([address]) => address)).toEqual(['/sitemap.xml']);
    const today = new Date().toISOString().slice(0, 10);
    expect(await sitemap()).toMatch(new RegExp(`/Notes/Old</loc><lastmod>${today}T`));
    // Done: nothing left for the next quiet moment but the search index's base.
    while ((await builder.tidy()) !== null);
    expect(await builder.tidy()).toBeNull();
  }, 60_000);
});
