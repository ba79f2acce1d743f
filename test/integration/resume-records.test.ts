// A restart's catch-up pass (SiteBuilder `resume`) starts from what the last run kept beside
// its generation: the notes' records (site/read/record-cache.ts), each used while its file
// keeps the stamp it was read with, and the search base its pages hold. So it parses only the
// notes changed while the server was down and indexes only them, and still leaves the site a
// fresh build of the vault as it is now makes. On the realistic 10,000-note vault the parses and
// the new base were 12 of a 15 s pass that a save made right after a restart waited for.
import { promises as fs, readFileSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { SEARCH_MANIFEST, type SearchManifest } from '../../shared/search/index-format.ts';
import { SiteBuilder } from '../../site/build/site-builder.ts';
import { cleanupTempDirs, tempDir, treeOf, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

const isSearch = (file: string) => file === SEARCH_MANIFEST || file.startsWith('_s/search/');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A vault of posts that link, embed and tag one another, a draft, and notes dated only by their files. */
function vaultNotes(): Record<string, string> {
  const notes: Record<string, string> = {};
  for (let i = 0; i < 24; i++) {
    const n = String(i).padStart(2, '0');
    const date = i % 3 === 0 ? '' : `date: 2024-02-${n === '00' ? '01' : String((i % 28) + 1).padStart(2, '0')}\n`;
    notes[`Posts/P${n}.md`] = `---\npublish: true\n${date}tags: [t${i % 4}]\n---\n# Post ${n}\n\nPost ${n} speaks of walrus${i} and links [[P${String((i + 1) % 24).padStart(2, '0')}]].\n\n## Part\n\nA part of ${n} ^b${n}\n`;
  }
  notes['Posts/Hub.md'] = '---\npublish: true\n---\nThe hub embeds ![[P03#Part]] and links [[P05]], [[P07|seven]].\n';
  notes['Drafts/Secret.md'] = '---\npublish: false\n---\nA draft that links [[P01]].\n';
  return notes;
}

function builderOf(root: string, vault: string, data: string, out: string): SiteBuilder {
  const config = loadConfig({ VAULT: vault, SERVICE_DATA: data, PUBLIC_LAYOUT: 'blog' }, []);
  return new SiteBuilder({ config, outRoot: path.join(root, out), buildThread: false, useGit: false, remember: true });
}

/** Built and remembered, as a server stopping after its first build leaves it. */
async function builtAndStopped() {
  const root = await tempDir('vs-resume-records-');
  const vault = path.join(root, 'vault');
  const data = path.join(root, 'data');
  await fs.mkdir(data, { recursive: true });
  await writeFiles(vault, vaultNotes());
  // A file changed within the clock's tick of its read has no stamp, and no record is kept of it.
  await sleep(150);
  const first = builderOf(root, vault, data, 'live');
  const built = await first.full();
  await first.images.settled();
  await first.remember();
  const manifest = JSON.parse(await fs.readFile(path.join(built.dir, SEARCH_MANIFEST), 'utf8')) as SearchManifest;
  return { root, vault, data, manifest };
}

describe("a restart's catch-up pass", () => {
  it('parses and indexes only the notes changed while the server was down, and leaves the files a fresh build writes', async () => {
    const { root, vault, data, manifest: before } = await builtAndStopped();
    // While it was down: a post edited, one added, a draft published, and a dateless post
    // given another remembered creation (its date comes from created.json, not from the record kept).
    await fs.writeFile(path.join(vault, 'Posts/P04.md'), '---\npublish: true\ndate: 2024-02-05\n---\nPost 04 now speaks of narwhals.\n');
    await fs.writeFile(path.join(vault, 'Posts/New.md'), '---\npublish: true\ndate: 2024-03-01\n---\nA new post links [[P04]].\n');
    await fs.writeFile(path.join(vault, 'Drafts/Secret.md'), '---\npublish: true\n---\nNo secret now; it links [[P01]].\n');
    await fs.writeFile(path.join(data, 'created.json'), JSON.stringify({ 'Posts/P06.md': Date.UTC(2023, 0, 2) }));

    const resumed = builderOf(root, vault, data, 'live');
    const result = await resumed.resume();
    expect(result.full).toBe(false);
    expect(result.notes).toEqual({ parsed: 3, of: 27 });

    const fresh = builderOf(root, vault, data, 'fresh');
    const whole = await fresh.full();
    const [mine, theirs] = [resumed.plannedSigs(), fresh.plannedSigs()];
    const pages = (sigs: Map<string, string>) => new Map([...sigs].filter(([address]) => !isSearch(address.slice(1))));
    expect(pages(mine)).toEqual(pages(theirs));
    const [live, built] = [treeOf(result.dir), treeOf(whole.dir)];
    const differ = [...new Set([...live.keys(), ...built.keys()])].filter((f) => !isSearch(f) && live.get(f) !== built.get(f));
    expect(differ).toEqual([]);
    expect(live.get('Posts/P06.html')).toContain('2023');

    // The search base is the one its pages held; the changed notes are its delta, the gone ones named.
    const manifest = JSON.parse(live.get(SEARCH_MANIFEST)!) as SearchManifest;
    expect(manifest.shards).toEqual(before.shards);
    expect(manifest.delta.map((d) => d.title).sort()).toEqual(['New', 'P04', 'Secret']);
    expect(manifest.gone).toHaveLength(1);
    expect(manifest.delta.find((d) => d.title === 'P04')!.text).toContain('narwhals');

    expect(manifest.shards.map(([, file]) => live.get(file)!).join('\n')).toContain('walrus4"');
    // The quiet moment after brings the edited note up to date in the base in place, its old
    // words out (the record kept was the base's version of it): no new base of every note.
    let tidied = await resumed.tidy();
    while (tidied?.tidy === true) tidied = await resumed.tidy();
    const after = treeOf(result.dir);
    const patched = JSON.parse(after.get(SEARCH_MANIFEST)!) as SearchManifest;
    expect(patched.gone).toEqual([]);
    expect(patched.delta.map((d) => d.title).sort()).toEqual(['New', 'Secret']);
    const shards = patched.shards.map(([, file]) => after.get(file)!).join('\n');
    expect(shards).toContain('narwhals');
    expect(shards).not.toContain('walrus4"');
  }, 60_000);

  it('a second restart with nothing changed parses no note at all', async () => {
    const { root, vault, data } = await builtAndStopped();
    const again = builderOf(root, vault, data, 'live');
    expect((await again.resume()).notes).toEqual({ parsed: 0, of: 26 });
    await again.remember();
    // Its records kept again: a note touched since (same text, a new stamp) is the only one read.
    await fs.utimes(path.join(vault, 'Posts/P02.md'), new Date(), new Date());
    expect((await builderOf(root, vault, data, 'live').resume()).notes).toEqual({ parsed: 1, of: 26 });
  }, 60_000);

  it('a note deleted while the server was down leaves no word of it in the search base', async () => {
    const { root, vault, data, manifest: before } = await builtAndStopped();
    await fs.rm(path.join(vault, 'Posts/P10.md'));
    const result = await builderOf(root, vault, data, 'live').resume();
    expect(result.notes).toEqual({ parsed: 0, of: 25 });
    const files = treeOf(result.dir);
    const manifest = JSON.parse(files.get(SEARCH_MANIFEST)!) as SearchManifest;
    expect(manifest.shards).not.toEqual(before.shards);
    expect([...files].filter(([f]) => isSearch(f)).map(([, text]) => text).join('\n')).not.toContain('walrus10');
  }, 60_000);

  it('a remembered search base naming a file its generation does not hold is none: a new base is made', async () => {
    const { root, vault, data, manifest: before } = await builtAndStopped();
    const record = path.join(root, 'live', 'generation.v8');
    const state = deserialize(readFileSync(record)) as { search: { shards: [string, string, number][] } };
    state.search.shards[0]![1] = '../../outside.json';
    writeFileSync(record, serialize(state));
    await fs.writeFile(path.join(vault, 'Posts/P04.md'), '---\npublish: true\ndate: 2024-02-05\n---\nPost 04 now speaks of narwhals.\n');
    const result = await builderOf(root, vault, data, 'live').resume();
    expect(result.full).toBe(false);
    const files = treeOf(result.dir);
    const manifest = JSON.parse(files.get(SEARCH_MANIFEST)!) as SearchManifest;
    expect(manifest.delta).toEqual([]);
    expect(manifest.shards).not.toEqual(before.shards);
    for (const [, file] of manifest.shards) expect(files.has(file)).toBe(true);
  }, 60_000);
});
