// CONTRACT §7: `/favicon.ico` is the vault root's favicon.ico, else its favicon.png,
// else the bundled one. Its bytes, for the live server (favicon.ts) and the static
// snapshot (scripts/cli/build.ts), which needs none of the server's compression.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readVaultFile } from '../../shared/vault-read.ts';
import { PROJECT_DIR } from '../render/paths.ts';

const BUILT_IN = path.join(PROJECT_DIR, 'site/assets/favicon.ico');
export const FAVICON_SOURCES = ['favicon.ico', 'favicon.png'];

/** Largest favicon taken from the vault: an icon is a few KB; anything bigger is not one. */
const MAX_FAVICON_BYTES = 1024 * 1024;

/**
 * The favicon's bytes and type: the vault's own (a regular file reached without a link,
 * CONTRACT §11), else the bundled one. The live server and the static snapshot both use it.
 */
export async function faviconOf(vaultDir: string): Promise<{ body: Buffer; type: string }> {
  for (const name of FAVICON_SOURCES) {
    const body = await readVaultFile(vaultDir, name, MAX_FAVICON_BYTES);
    if (body) return { body, type: name.endsWith('.png') ? 'image/png' : 'image/x-icon' };
  }
  return { body: await fs.readFile(BUILT_IN), type: 'image/x-icon' };
}
