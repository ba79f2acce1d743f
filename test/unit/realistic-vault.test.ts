// The realistic benchmark vault holds what the measured real vaults hold (bytes, vocabulary,
// URLs, dates, tails), and the same seed writes the same vault.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRealisticVault, type RealisticVault } from '../../scripts/bench/_realistic-vault.ts';
import { profileVault, type VaultProfile } from '../../scripts/bench/_vault-profile.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

let dir: string;
let vault: RealisticVault;
let profile: VaultProfile;

beforeAll(async () => {
  dir = await tempDir('vs-realistic-');
  vault = await generateRealisticVault(dir, 1_000, 1);
  profile = await profileVault(dir);
}, 60_000);

/** Every file's path, bytes and modification time, hashed. */
async function fingerprint(root: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = (await fs.readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  for (const file of entries.map((e) => path.join(e.parentPath, e.name)).sort()) {
    hash.update(`${path.relative(root, file)}\0${Math.round((await fs.stat(file)).mtimeMs)}\0`);
    hash.update(await fs.readFile(file));
  }
  return hash.digest('hex');
}

describe('the realistic benchmark vault, 1,000 notes', () => {
  it('has the real vaults’ note sizes: median about 2 KB, p99 about 12 KB, one note of 300 KB', () => {
    expect(profile.notes).toBe(1_000);
    expect(profile.bytes.median).toBeGreaterThan(1_700);
    expect(profile.bytes.median).toBeLessThan(2_400);
    expect(profile.bytes.p99).toBeGreaterThan(8_000);
    expect(profile.bytes.p99).toBeLessThan(18_000);
    expect(profile.bytes.max).toBeGreaterThanOrEqual(300_000);
  });

  it('draws from a Zipf vocabulary of 20,000+ words', () => {
    expect(vault.vocabularySize).toBeGreaterThanOrEqual(20_000);
    expect(profile.distinctWords).toBeGreaterThanOrEqual(15_000);
  });

  it('has about 8 URLs a note and some notes with hundreds', () => {
    expect(profile.urls.median).toBeGreaterThanOrEqual(6);
    expect(profile.urls.median).toBeLessThanOrEqual(10);
    expect(profile.urls.max).toBeGreaterThanOrEqual(150);
  });

  it('leaves 98% of notes without a date and spreads file times over years', () => {
    expect(profile.share.dated).toBeGreaterThan(0);
    expect(profile.share.dated).toBeLessThanOrEqual(0.03);
    const times = vault.notes.map((n) => n.mtimeMs);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(3 * 365 * 86_400_000);
  });

  it('has an index note linking every other note (up to 3,000) and is the second newest post', async () => {
    const text = await fs.readFile(path.join(dir, vault.index.path), 'utf8');
    expect(new Set(text.match(/\[\[[^\]]+\]\]/g)).size).toBe(999);
    expect(profile.wikilinks.max).toBe(999);
    expect(vault.index.published && vault.newest.published).toBe(true);
    expect(vault.index.mtimeMs).toBeLessThan(vault.newest.mtimeMs);
    expect(vault.notes.filter((n) => n.published && n.mtimeMs > vault.index.mtimeMs)).toEqual([vault.newest]);
  });

  it('holds raw HTML, %% comments, block ids, aliases, linked headings, non-ASCII names and attachments', () => {
    expect(profile.share.html).toBeGreaterThan(0.5);
    expect(profile.share.comments).toBeGreaterThan(0.5);
    expect(profile.share.blockIds).toBeGreaterThan(0.3);
    expect(profile.share.blockIds).toBeLessThan(0.5);
    expect(profile.share.aliases).toBeGreaterThan(0.9);
    expect(profile.share.headingLinks).toBeGreaterThanOrEqual(0.005);
    expect(profile.share.nonAsciiNames).toBeGreaterThanOrEqual(0.005);
    expect(profile.share.embeds).toBeGreaterThan(0.3);
    expect(profile.otherFiles).toBe(vault.attachments.length);
    expect(vault.attachments.some((a) => a.endsWith('.png')) && vault.attachments.some((a) => a.endsWith('.svg'))).toBe(true);
  });

  it('writes valid PNGs and nests folders with folder notes', async () => {
    const png = await fs.readFile(path.join(dir, vault.attachments.find((a) => a.endsWith('.png'))!));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.subarray(12, 16).toString()).toBe('IHDR');
    const nested = vault.notes.filter((n) => n.path.split('/').length >= 3);
    expect(nested.length).toBeGreaterThan(0);
    const folderNotes = vault.notes.filter((n) => path.basename(path.dirname(n.path)) === n.name);
    expect(folderNotes.length).toBeGreaterThanOrEqual(4);
  });

  it('is the same vault, bytes and file times, for the same seed, and another for another seed', async () => {
    const [a, b, c] = [await tempDir('vs-realistic-a-'), await tempDir('vs-realistic-b-'), await tempDir('vs-realistic-c-')];
    await generateRealisticVault(a, 200, 5);
    await generateRealisticVault(b, 200, 5);
    await generateRealisticVault(c, 200, 6);
    expect(await fingerprint(a)).toBe(await fingerprint(b));
    expect(await fingerprint(a)).not.toBe(await fingerprint(c));
  }, 30_000);
});
