// The vault's own Obsidian settings (`.obsidian/app.json`) that decide how its notes read:
// Obsidian shows a single line break in a paragraph as a break unless "Strict line breaks"
// is on, when lines join as standard Markdown joins them (a vault of hard-wrapped text).
// Read without following a link (CONTRACT §11), bounded, and as nothing when malformed.
import { unwatchFile, watchFile } from 'node:fs';
import path from 'node:path';
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
 * they are now: a builder as it loads the vault (VaultStore), the server at its start and
 * whenever the setting changes (watchLineBreaks).
 */
export function useVaultLineBreaks(vaultDir: string): void {
  setStrictLineBreaks(strictLineBreaksOf(vaultDir));
}

/** How often the server looks at app.json: the vault's watcher never enters `.obsidian/`. */
const APP_JSON_POLL_MS = 2000;

/**
 * Calls `changed` when the vault's "Strict line breaks" setting changes (in Obsidian, or by a
 * pull or a sync bringing another device's app.json): one stat every two seconds.
 */
export function watchLineBreaks(vaultDir: string, changed: (strict: boolean) => void): { close(): void } {
  const file = path.join(vaultDir, APP_JSON);
  let strict = strictLineBreaksOf(vaultDir);
  const look = () => {
    const now = strictLineBreaksOf(vaultDir);
    if (now === strict) return;
    strict = now;
    changed(now);
  };
  watchFile(file, { interval: APP_JSON_POLL_MS, persistent: false }, look);
  return { close: () => unwatchFile(file, look) };
}
