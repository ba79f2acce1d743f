// CONTRACT §7: `/favicon.ico` is the vault root's favicon.ico, else its favicon.png,
// else the bundled one (a browser asks for it on every site: never a 404). Held in
// memory; a change to either vault file drops it.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readVaultFile } from '../../shared/vault-read.ts';
import { PROJECT_DIR } from '../build/paths.ts';
import { cacheControl } from './page-headers.ts';
import { prepare, type Prepared } from './prepared.ts';

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

export class Favicon {
  private current: Promise<Prepared> | null = null;

  constructor(
    private readonly vaultDir: string,
    private readonly isPublic = true,
  ) {}

  /** A vault path changed: is it one of ours? */
  changed(p: string): void {
    if (FAVICON_SOURCES.includes(p)) this.current = null;
  }

  get(): Promise<Prepared> {
    this.current ??= this.load().catch((err) => {
      this.current = null;
      throw err;
    });
    return this.current;
  }

  private async load(): Promise<Prepared> {
    const { body, type } = await faviconOf(this.vaultDir);
    return this.prepared(body, type);
  }

  private prepared(body: Buffer, type: string): Promise<Prepared> {
    return prepare({
      status: 200,
      body,
      compress: false,
      headers: [
        ['content-type', type],
        ['cache-control', cacheControl('public, max-age=3600', this.isPublic)],
        ...(this.isPublic ? [] : ([['vary', 'Cookie']] as [string, string][])),
        ['x-content-type-options', 'nosniff'],
      ],
    });
  }
}
