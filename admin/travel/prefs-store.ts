// The device preferences on disk: SERVICE_DATA/prefs.json (this device's full copy)
// and `.service/prefs.json` (the copy that travels). A sync merges both ways; since
// every device keeps its own full copy, rewriting a torn vault copy loses nothing.
import { KeyedMutex } from '../../shared/keyed-mutex.ts';
import { log } from '../../shared/log.ts';
import { TravelFileError, type TravelFiles } from './files.ts';
import { PREFS_FILE, SERVICE_DIR } from './items.ts';
import {
  applyPrefChanges,
  emptyPrefs,
  mergePrefs,
  prefsCover,
  sanitizePrefs,
  serializePrefs,
  type PrefsDoc,
} from './prefs.ts';
import type { TravelProblem } from './report-types.ts';

const VAULT_REL = `${SERVICE_DIR}/${PREFS_FILE}`;

export interface PrefsSyncOutcome {
  problems: TravelProblem[];
  /** Files written by this sync (0, 1 or 2). */
  copied: number;
  /** True when both copies exist and agree after the sync. */
  agreed: boolean;
}

export class PrefsStore {
  private lock = new KeyedMutex();

  constructor(
    private readonly dataDir: string,
    private readonly vaultReal: string,
    private readonly files: TravelFiles,
  ) {}

  /** This device's copy; a malformed file reads as its well-formed entries. */
  async readLocal(): Promise<PrefsDoc> {
    return (await this.readDoc(this.dataDir, PREFS_FILE)).doc ?? emptyPrefs();
  }

  /** The vault's copy, or null when absent; `malformed` when it could not be parsed. */
  async readVault(): Promise<{ doc: PrefsDoc | null; malformed: boolean; dropped: number }> {
    return this.readDoc(this.vaultReal, VAULT_REL);
  }

  private async readDoc(root: string, rel: string): Promise<{ doc: PrefsDoc | null; malformed: boolean; dropped: number }> {
    let bytes: Buffer;
    try {
      if ((await this.files.state(root, rel)) === null) return { doc: null, malformed: false, dropped: 0 };
      bytes = await this.files.read(root, rel);
    } catch (err) {
      if (err instanceof TravelFileError) throw err;
      return { doc: null, malformed: false, dropped: 0 };
    }
    let raw: unknown;
    try {
      raw = JSON.parse(bytes.toString('utf8'));
    } catch {
      return { doc: null, malformed: true, dropped: 0 };
    }
    const { doc, dropped } = sanitizePrefs(raw);
    return { doc, malformed: false, dropped };
  }

  /** A PUT: applies the changes to this device's copy and returns it. */
  update(changes: Record<string, unknown>): Promise<PrefsDoc> {
    return this.lock.run('prefs', async () => {
      const doc = applyPrefChanges(await this.readLocal(), changes, Date.now());
      await this.files.write(this.dataDir, PREFS_FILE, Buffer.from(serializePrefs(doc)), { mode: 0o600 });
      return doc;
    });
  }

  /** Merges this device's copy and the vault's both ways. */
  sync(): Promise<PrefsSyncOutcome> {
    return this.lock.run('prefs', async () => {
      const problems: TravelProblem[] = [];
      let copied = 0;
      let vault: Awaited<ReturnType<PrefsStore['readVault']>>;
      try {
        vault = await this.readVault();
      } catch (err) {
        problems.push(problem('vault', (err as TravelFileError).message, (err as TravelFileError).reason));
        return { problems, copied, agreed: false };
      }
      if (vault.malformed) {
        problems.push(problem('vault', 'is not valid JSON; it was not adopted and is rewritten from this device', 'malformed'));
      } else if (vault.dropped > 0) {
        log.warn(`.service/prefs.json: ${vault.dropped} malformed preference entries were dropped`);
      }
      const local = await this.readLocal();
      const merged = mergePrefs(local, vault.doc ?? emptyPrefs());
      const bytes = serializePrefs(merged);
      try {
        if (serializePrefs(local) !== bytes) {
          await this.files.write(this.dataDir, PREFS_FILE, Buffer.from(bytes), { mode: 0o600 });
          copied++;
        }
      } catch (err) {
        problems.push(problem('device', (err as TravelFileError).message, (err as TravelFileError).reason));
      }
      const vaultHasAll = vault.doc !== null && prefsCover(vault.doc, merged) && !vault.malformed && vault.dropped === 0;
      const nothingToCarry = vault.doc === null && !vault.malformed && Object.keys(merged.keys).length === 0;
      if (!vaultHasAll && !nothingToCarry) {
        try {
          await this.files.write(this.vaultReal, VAULT_REL, Buffer.from(bytes), { mode: 0o644 });
          copied++;
        } catch (err) {
          problems.push(problem('vault', (err as TravelFileError).message, (err as TravelFileError).reason));
          return { problems, copied, agreed: false };
        }
      }
      return { problems, copied, agreed: !nothingToCarry };
    });
  }
}

function problem(side: 'vault' | 'device', reason: string, code: string): TravelProblem {
  return { item: 'prefs', file: side === 'vault' ? VAULT_REL : PREFS_FILE, side, code, reason };
}
