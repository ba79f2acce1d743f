// A post's feed id (its RSS guid) is fixed when it is first published and never changes:
// a renamed or re-addressed post is not a new post to a feed reader. Kept per vault path in
// the data directory (feed-ids.json), and in the vault's `.service/` beside the settings that
// travel, so a second server on the same vault, or the same vault on another machine, agrees.
// The vault's copy is hostile input: read bounded, entries vetted, merged, never trusted whole.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeJsonAtomic } from '../atomic-write.ts';
import { dataPath, DATA_FILES } from '../data-path.ts';
import { log } from '../log.ts';
import { readRegularFile, readVaultText } from '../vault-read.ts';
import type { Address } from './addresses.ts';

const FILE = DATA_FILES.feedIds;
const VAULT_FILE = `.service/${FILE}`;
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_ENTRIES = 500_000;
const MAX_TEXT = 2048;

/** Vault path → [the address the post was first published at, when that was (epoch ms)]. */
type Entries = Map<string, [Address, number]>;

interface Stored {
  version: 1;
  ids: Record<string, [string, number]>;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The entries of a stored file, each vetted; anything else in it is ignored. */
export function readEntries(text: string | null): Entries {
  const out: Entries = new Map();
  if (text === null) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return out;
  }
  const ids = (parsed as Partial<Stored> | null)?.ids;
  if (!ids || typeof ids !== 'object' || Array.isArray(ids)) return out;
  for (const [p, entry] of Object.entries(ids)) {
    if (out.size >= MAX_ENTRIES) break;
    if (!Array.isArray(entry) || entry.length !== 2) continue;
    const [address, at] = entry as unknown[];
    if (p.length > MAX_TEXT || CONTROL.test(p) || typeof address !== 'string' || !address.startsWith('/') || address.length > MAX_TEXT || CONTROL.test(address)) continue;
    if (typeof at !== 'number' || !Number.isFinite(at) || at < 0) continue;
    out.set(p, [address as Address, at]);
  }
  return out;
}

export class FeedIds {
  private ids: Entries = new Map();
  private dirty = false;

  /**
   * `dataDir` null: nothing is read or written (a throwaway build). `vaultDir`: the vault whose
   * `.service/` copy is read, and written unless `readOnlyVault` (a static snapshot never writes
   * into the vault: a CI checkout stays as it was).
   */
  constructor(
    private readonly dataDir: string | null,
    private readonly vaultDir: string | null = null,
    private readonly readOnlyVault = false,
  ) {}

  /** Both copies, merged: of two ids for one note, the earlier published wins. */
  async load(): Promise<void> {
    if (this.dataDir === null) return;
    const own = readEntries((await readRegularFile(dataPath(this.dataDir, FILE), MAX_BYTES).catch(() => null))?.data.toString('utf8') ?? null);
    const carried = this.vaultDir === null ? new Map() : readEntries(await readVaultText(this.vaultDir, VAULT_FILE, MAX_BYTES));
    this.ids = own;
    for (const [p, entry] of carried) this.offer(p, entry);
    this.dirty = carried.size > 0 && [...carried].some(([p, [a, at]]) => own.get(p)?.[0] !== a || own.get(p)?.[1] !== at);
  }

  private offer(p: string, entry: [Address, number]): void {
    const known = this.ids.get(p);
    if (known && known[1] <= entry[1]) return;
    this.ids.set(p, entry);
    this.dirty = true;
  }

  /**
   * The note's feed id when it is not its address: only a post whose address changed has an
   * entry, so a vault's ids change (and travel, and are committed) only when a post moves.
   */
  of(p: string): Address | undefined {
    return this.ids.get(p)?.[0];
  }

  /** The post at `p` was published at `before` and is now elsewhere (a new permalink): it keeps that id. */
  readdressed(p: string, before: Address, now: number): void {
    if (!this.ids.has(p)) this.offer(p, [before, now]);
  }

  /** The post at `from` (published at `address`) is now at `to`: its id goes with it (the earlier of two). */
  moved(from: string, to: string, address: Address, now: number): void {
    const entry = this.ids.get(from) ?? ([address, now] as [Address, number]);
    this.ids.delete(from);
    const there = this.ids.get(to);
    if (!there || entry[1] <= there[1]) this.ids.set(to, entry);
    this.dirty = true;
  }

  /** Writes both copies when something was learnt (temp file + rename each). */
  async save(): Promise<void> {
    if (!this.dirty || this.dataDir === null) return;
    this.dirty = false;
    const stored: Stored = { version: 1, ids: Object.fromEntries(this.ids) };
    try {
      await writeJsonAtomic(dataPath(this.dataDir, FILE), stored, { mkdir: true });
      // Into the vault only where its `.service/` is a folder of its own (never through a link).
      const folder = this.vaultDir === null || this.readOnlyVault ? null : path.join(this.vaultDir, '.service');
      if (folder && (await fs.lstat(folder).catch(() => null))?.isDirectory()) await writeJsonAtomic(path.join(folder, FILE), stored);
    } catch (err) {
      this.dirty = true;
      log.warn(`${FILE} could not be written: ${(err as Error).message}`);
    }
  }
}
