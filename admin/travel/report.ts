// The 'What travels' items (Appendix C): per item, does the vault hold it (✓), does
// this machine hold something the vault does not yet (⚠), or is there nothing to
// carry (–). Computed from disk on each call; hashes come from the file cache.
import type { FileState, TravelFiles } from './files.ts';
import { FONTS_DIR, FONTS_INDEX, ITEM_LABELS, ITEM_ORDER, MIRRORED_FILES, SERVICE_DIR, type TravelItemId } from './items.ts';
import { vaultRel } from './mirror.ts';
import { liveKeys, prefsCover } from './prefs.ts';
import type { PrefsStore } from './prefs-store.ts';
import { GLYPHS, type ItemState, type TravelItemReport } from './report-types.ts';

export interface ItemInputs {
  dataDir: string;
  vaultReal: string;
  files: TravelFiles;
  bases: Record<string, string>;
  prefs: PrefsStore;
  travelWithVault: boolean;
}

async function states(inputs: ItemInputs, rel: string): Promise<{ local: FileState | null; vault: FileState | null }> {
  const local = await inputs.files.state(inputs.dataDir, rel).catch(() => null);
  const vault = await inputs.files.state(inputs.vaultReal, vaultRel(rel)).catch(() => null);
  return { local, vault };
}

/** One file's state: a local copy the vault lacks or differs from (and that is not merely older) is ⚠. */
function fileState(local: FileState | null, vault: FileState | null, base: string | undefined): ItemState {
  if (!local && !vault) return 'none';
  if (!local) return 'vault';
  if (vault && (vault.hash === local.hash || local.hash === base)) return 'vault';
  return 'local';
}

function combine(parts: ItemState[]): ItemState {
  if (parts.includes('local')) return 'local';
  if (parts.includes('vault')) return 'vault';
  return 'none';
}

const item = (id: TravelItemId, state: ItemState, extra: Partial<TravelItemReport> = {}): TravelItemReport => ({
  id,
  label: ITEM_LABELS[id],
  state,
  glyph: GLYPHS[state],
  ...extra,
});

export async function travelItems(inputs: ItemInputs): Promise<TravelItemReport[]> {
  const out: TravelItemReport[] = [];
  for (const f of MIRRORED_FILES) {
    const { local, vault } = await states(inputs, f.rel);
    out.push(item(f.item, fileState(local, vault, inputs.bases[f.rel])));
  }
  const local = await inputs.files.list(inputs.dataDir, FONTS_DIR, 2000);
  const vault = (await inputs.files.list(inputs.vaultReal, vaultRel(FONTS_DIR), 2000)).map((r) => r.slice(SERVICE_DIR.length + 1));
  const all = [...new Set([...local, ...vault])];
  const fontStates: ItemState[] = [];
  let count = 0;
  for (const rel of all) {
    const s = await states(inputs, rel);
    fontStates.push(fileState(s.local, s.vault, inputs.bases[rel]));
    if (rel !== FONTS_INDEX && (s.local || s.vault)) count++;
  }
  out.push(item('fonts', combine(fontStates), { count }));

  const localPrefs = await inputs.prefs.readLocal();
  const vaultPrefs = await inputs.prefs.readVault().catch(() => ({ doc: null }));
  const keyCount = Object.keys(liveKeys(localPrefs)).length;
  let prefsState: ItemState;
  if (Object.keys(localPrefs.keys).length === 0) prefsState = vaultPrefs.doc && Object.keys(vaultPrefs.doc.keys).length ? 'vault' : 'none';
  else prefsState = inputs.travelWithVault && vaultPrefs.doc && prefsCover(vaultPrefs.doc, localPrefs) ? 'vault' : 'local';
  out.push(item('prefs', prefsState, { count: keyCount, travels: inputs.travelWithVault }));

  return ITEM_ORDER.map((id) => out.find((i) => i.id === id)!);
}
