// The mirror's memory in SERVICE_DATA/travel-state.json (never mirrored itself):
// per vault real path, the hash each file last agreed on (so "first contact" is
// known, spec 8), the agreed text of the JSON files a pass may merge, and the last pass; plus this device's own switch 'Settings travel
// with the vault', which must not travel.
import { readJson, writeJsonAtomic } from '../../shared/atomic-write.ts';
import { log } from '../../shared/log.ts';
import type { PassSummary } from './report-types.ts';
import { dataPath, DATA_FILES, type DataPath } from '../../shared/data-path.ts';

export const TRAVEL_STATE_FILE = DATA_FILES.travelState;

/** The text of a mergeable file as both sides last agreed on it, and its hash. */
export interface BaseCopy {
  hash: string;
  text: string;
}

interface VaultMemory {
  bases: Record<string, string>;
  copies: Record<string, BaseCopy>;
  lastPass: PassSummary | null;
}

interface StateFile {
  version: 1;
  device: { travelWithVault: boolean };
  vaults: Record<string, VaultMemory>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class TravelState {
  private data: StateFile = { version: 1, device: { travelWithVault: true }, vaults: {} };
  private readonly file: DataPath;

  constructor(dataDir: string) {
    this.file = dataPath(dataDir, TRAVEL_STATE_FILE);
  }

  async load(): Promise<void> {
    let raw: unknown;
    try {
      raw = await readJson<unknown>(this.file, null);
    } catch {
      log.warn(`${TRAVEL_STATE_FILE} is unreadable; every file in .service/ counts as met for the first time`);
      return;
    }
    if (!isObject(raw)) return;
    if (isObject(raw.device) && typeof raw.device.travelWithVault === 'boolean') {
      this.data.device.travelWithVault = raw.device.travelWithVault;
    }
    if (isObject(raw.vaults)) {
      for (const [vault, memory] of Object.entries(raw.vaults)) {
        if (!isObject(memory) || !isObject(memory.bases)) continue;
        const bases: Record<string, string> = {};
        for (const [rel, hash] of Object.entries(memory.bases)) if (typeof hash === 'string') bases[rel] = hash;
        const copies: Record<string, BaseCopy> = {};
        if (isObject(memory.copies)) {
          for (const [rel, copy] of Object.entries(memory.copies)) {
            if (isObject(copy) && typeof copy.hash === 'string' && typeof copy.text === 'string') copies[rel] = { hash: copy.hash, text: copy.text };
          }
        }
        this.data.vaults[vault] = { bases, copies, lastPass: isObject(memory.lastPass) ? (memory.lastPass as unknown as PassSummary) : null };
      }
    }
  }

  save(): Promise<void> {
    return writeJsonAtomic(this.file, this.data, { mode: 0o600 });
  }

  vault(realPath: string): VaultMemory {
    return (this.data.vaults[realPath] ??= { bases: {}, copies: {}, lastPass: null });
  }

  get travelWithVault(): boolean {
    return this.data.device.travelWithVault;
  }

  set travelWithVault(value: boolean) {
    this.data.device.travelWithVault = value;
  }
}
