// The vault's own Obsidian settings (`.obsidian/app.json`) that decide how its notes read:
// Obsidian shows a single line break in a paragraph as a break unless "Strict line breaks"
// is on, when lines join as standard Markdown joins them (a vault of hard-wrapped text).
// Read without following a link (CONTRACT §11), bounded, and as nothing when malformed.
import { setStrictLineBreaks } from './note/line-breaks.ts';
import { readVaultFileSync } from './vault-read.ts';

export const APP_JSON = '.obsidian/app.json';
/** Obsidian's app.json is a few hundred bytes. */
export const MAX_APP_JSON_BYTES = 256 * 1024;

/** The app.json's settings, or {} when it is missing, too large or not a JSON object. */
export function obsidianAppSettings(vaultDir: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readVaultFileSync(vaultDir, APP_JSON, MAX_APP_JSON_BYTES)?.toString('utf8') ?? '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Whether the vault has Obsidian's "Strict line breaks" on. */
export const strictLineBreaksOf = (vaultDir: string): boolean => obsidianAppSettings(vaultDir).strictLineBreaks === true;

/**
 * This process renders (or judges pages of) the vault at `vaultDir` with its line breaks as
 * they are now, for its life: a builder as it loads the vault (VaultStore), the server at its
 * start (restart it after changing the setting in Obsidian).
 */
export function useVaultLineBreaks(vaultDir: string): void {
  setStrictLineBreaks(strictLineBreaksOf(vaultDir));
}
