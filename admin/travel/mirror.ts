// One pass of the settings mirror between SERVICE_DATA and the vault's `.service/`
// (spec 8). Per file, a three-way decision against the hash both sides last agreed
// on ("base", remembered per vault real path):
//  - no base yet (first contact): the vault copy wins when there is one;
//  - one side changed since the base: that side's copy wins;
//  - both changed: the newest copy (modification time) wins.
// A copy is vetted before it is adopted, so a torn or malformed file never replaces
// a good one; a left-behind or refused file is reported with its reason.
import { log } from '../../shared/log.ts';
import { holdVaultRequest } from '../sync/vault-request.ts';
import { SettingsError, settingsFile, validateStoredSettings, withSettingsLock, type SettingsChecks } from '../../shared/settings.ts';
import { hashBytes, TravelFileError, type FileState, type TravelFiles } from './files.ts';
import { planFonts, type FontCaps, DEFAULT_FONT_CAPS } from './font-caps.ts';
import { FONTS_DIR, fontVetting, MIRRORED_FILES, SERVICE_DIR, type TravelItemId, type Vetting } from './items.ts';
import type { TravelProblem } from './report-types.ts';

/** Largest single (non-font) file the mirror carries. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const LIST_LIMIT = 2000;

export interface MirrorContext {
  dataDir: string;
  vaultReal: string;
  files: TravelFiles;
  checks: SettingsChecks;
  /** rel → hash both sides last agreed on; updated in place. */
  bases: Record<string, string>;
  fontCaps?: FontCaps;
}

export interface MirrorOutcome {
  reconciled: number;
  copied: number;
  problems: TravelProblem[];
  /** Files this pass adopted from the vault. */
  pulled: string[];
  basesChanged: boolean;
}

type Action = 'push' | 'pull' | 'delete-vault' | 'delete-local';

export const vaultRel = (rel: string) => `${SERVICE_DIR}/${rel}`;

/** The three-way decision (see the header). `folder` files may be deleted; single files are refilled. */
export function decide(local: FileState | null, vault: FileState | null, base: string | undefined, folder: boolean): Action | null {
  if (!local && !vault) return null;
  if (local && vault && local.hash === vault.hash) return null;
  if (base === undefined) return vault ? 'pull' : 'push';
  const localChanged = (local?.hash ?? null) !== base;
  const vaultChanged = (vault?.hash ?? null) !== base;
  if (localChanged && !vaultChanged) return local ? 'push' : folder ? 'delete-vault' : 'pull';
  if (vaultChanged && !localChanged) return vault ? 'pull' : folder ? 'delete-local' : 'push';
  if (!local) return 'pull';
  if (!vault) return 'push';
  return local.mtimeMs > vault.mtimeMs ? 'push' : 'pull';
}

/** Why a copy may not be adopted, or null when it is sound. */
export function vet(bytes: Buffer, vetting: Vetting, checks: SettingsChecks): string | null {
  if (vetting === 'binary') return bytes.length === 0 ? 'is empty' : null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'is not UTF-8 text';
  }
  if (vetting === 'text') return text.includes('\u0000') ? 'is not text' : null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'is not valid JSON (partly written or damaged)';
  }
  if (typeof value !== 'object' || value === null) return 'is not a JSON object or list';
  if (vetting === 'settings') {
    if (Array.isArray(value)) return 'is not a settings object';
    try {
      validateStoredSettings(value, checks);
    } catch (err) {
      // The file is JSON: its key says where to look, the sentence what is wrong.
      return err instanceof SettingsError ? `holds a bad value at ${err.field}: ${err.message}` : `holds a bad value: ${(err as Error).message}`;
    }
  }
  return null;
}

export async function mirrorPass(ctx: MirrorContext): Promise<MirrorOutcome> {
  const out: MirrorOutcome = { reconciled: 0, copied: 0, problems: [], pulled: [], basesChanged: false };
  const setBase = (rel: string, hash: string | null) => {
    if (hash === null) {
      if (rel in ctx.bases) {
        delete ctx.bases[rel];
        out.basesChanged = true;
      }
    } else if (ctx.bases[rel] !== hash) {
      ctx.bases[rel] = hash;
      out.basesChanged = true;
    }
  };
  const problem = (item: TravelItemId, rel: string, side: 'vault' | 'device', code: string, reason: string) =>
    out.problems.push({ item, file: side === 'vault' ? vaultRel(rel) : rel, side, code, reason });

  async function reconcile(item: TravelItemId, rel: string, vetting: Vetting, folder: boolean, mayPush: boolean): Promise<void> {
    let local: FileState | null;
    let vault: FileState | null;
    try {
      local = await ctx.files.state(ctx.dataDir, rel);
    } catch (err) {
      return void problem(item, rel, 'device', (err as TravelFileError).reason ?? 'io', (err as Error).message);
    }
    try {
      vault = await ctx.files.state(ctx.vaultReal, vaultRel(rel));
    } catch (err) {
      return void problem(item, rel, 'vault', (err as TravelFileError).reason ?? 'io', (err as Error).message);
    }
    let action = decide(local, vault, ctx.bases[rel], folder);
    if (action === null) {
      if (local && vault) {
        setBase(rel, local.hash);
        out.reconciled++;
      } else setBase(rel, null);
      return;
    }
    try {
      if (action === 'pull') {
        const bytes = await ctx.files.read(ctx.vaultReal, vaultRel(rel));
        const why = bytes.length > MAX_FILE_BYTES ? 'is larger than 8 MB' : vet(bytes, vetting, ctx.checks);
        if (why === null) {
          // A save that landed here since the decision is not overwritten; the next pass weighs it.
          if (!(await adopt(rel, vetting, bytes, local?.hash ?? null))) return;
          setBase(rel, hashBytes(bytes));
          out.pulled.push(rel);
          out.copied++;
          out.reconciled++;
          return;
        }
        problem(item, rel, 'vault', 'malformed', `${why}; the copy on this device was kept`);
        // A genuine newer edit on this device may replace a damaged vault copy.
        const base = ctx.bases[rel];
        if (!(local && base !== undefined && local.hash !== base)) return;
        action = 'push';
      }
      if (action === 'push') {
        if (!mayPush) return;
        const bytes = await ctx.files.read(ctx.dataDir, rel);
        const why = vetting !== 'binary' && bytes.length > MAX_FILE_BYTES ? 'is larger than 8 MB' : vet(bytes, vetting, ctx.checks);
        if (why !== null) return void problem(item, rel, 'device', 'malformed', `${why}; it was not carried into the vault`);
        // Another server's copy that landed since the decision is not overwritten unseen.
        if (((await ctx.files.state(ctx.vaultReal, vaultRel(rel)))?.hash ?? null) !== (vault?.hash ?? null)) return;
        await ctx.files.write(ctx.vaultReal, vaultRel(rel), bytes, { mode: 0o644, mtimeMs: local?.mtimeMs });
        setBase(rel, hashBytes(bytes));
        out.copied++;
        out.reconciled++;
      } else if (action === 'delete-vault') {
        await ctx.files.remove(ctx.vaultReal, vaultRel(rel));
        setBase(rel, null);
        out.copied++;
      } else if (action === 'delete-local') {
        await ctx.files.remove(ctx.dataDir, rel);
        setBase(rel, null);
        out.copied++;
      }
    } catch (err) {
      const side = action === 'pull' || action === 'delete-local' ? 'device' : 'vault';
      problem(item, rel, side, err instanceof TravelFileError ? err.reason : 'io', (err as Error).message);
    }
  }

  /**
   * Writes an adopted vault copy into the data directory (settings under the settings
   * lock, and through the backup rule), unless the local file changed since the
   * decision; says whether it wrote.
   */
  async function adopt(rel: string, vetting: Vetting, bytes: Buffer, decidedOn: string | null): Promise<boolean> {
    const write = async (data: Buffer) => {
      if (((await ctx.files.state(ctx.dataDir, rel))?.hash ?? null) !== decidedOn) return false;
      await ctx.files.write(ctx.dataDir, rel, data, { mode: 0o600 });
      return true;
    };
    if (vetting !== 'settings') return write(bytes);
    return withSettingsLock(settingsFile(ctx.dataDir), async () => {
      if (((await ctx.files.state(ctx.dataDir, rel))?.hash ?? null) !== decidedOn) return false;
      const parsed = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      const sync = parsed.sync as Record<string, unknown> | undefined;
      // spec 2.2: a token never lands in settings.json, even from a doctored vault copy.
      const hasToken = sync !== null && typeof sync === 'object' && 'token' in sync;
      // CONTRACT §14: the copy is adopted whole, but a backup target it asks for waits for the admin.
      await holdVaultRequest(ctx.dataDir, parsed);
      await ctx.files.write(ctx.dataDir, rel, hasToken ? Buffer.from(JSON.stringify(validateStoredSettings(parsed), null, 2) + '\n') : bytes, { mode: 0o600 });
      return true;
    });
  }

  for (const f of MIRRORED_FILES) await reconcile(f.item, f.rel, f.vetting, false, true);

  // Uploaded fonts: the union of both folders, the caps deciding what may be pushed.
  const localFonts = await ctx.files.list(ctx.dataDir, FONTS_DIR, LIST_LIMIT);
  const vaultFonts = (await ctx.files.list(ctx.vaultReal, vaultRel(FONTS_DIR), LIST_LIMIT)).map((r) => r.slice(SERVICE_DIR.length + 1));
  const localStates = new Map<string, FileState>();
  for (const rel of localFonts) {
    const st = await ctx.files.state(ctx.dataDir, rel).catch(() => null);
    if (st) localStates.set(rel, st);
  }
  const inVault = new Set<string>();
  for (const rel of vaultFonts) {
    const st = await ctx.files.state(ctx.vaultReal, vaultRel(rel)).catch(() => null);
    if (st && localStates.get(rel)?.hash === st.hash) inVault.add(rel);
  }
  const plan = planFonts(
    [...localStates].map(([rel, st]) => ({ rel, size: st.size, mtimeMs: st.mtimeMs, inVault: inVault.has(rel) })),
    ctx.fontCaps ?? DEFAULT_FONT_CAPS,
  );
  out.problems.push(...plan.leftBehind);
  for (const rel of [...new Set([...localFonts, ...vaultFonts])].sort()) {
    await reconcile('fonts', rel, fontVetting(rel), true, plan.allowed.has(rel));
  }
  return out;
}
