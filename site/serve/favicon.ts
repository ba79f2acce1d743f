// CONTRACT §7: `/favicon.ico` is the vault root's favicon.ico, else its favicon.png,
// else the bundled one (a browser asks for it on every site: never a 404). Held in
// memory; a change to either vault file drops it.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { PROJECT_DIR } from '../build/paths.ts';
import { prepare, type Prepared } from './prepared.ts';

const BUILT_IN = path.join(PROJECT_DIR, 'site/assets/favicon.ico');
export const FAVICON_SOURCES = ['favicon.ico', 'favicon.png'];

export class Favicon {
  private current: Promise<Prepared> | null = null;

  constructor(private readonly vaultDir: string) {}

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
    for (const name of FAVICON_SOURCES) {
      const abs = path.join(this.vaultDir, name);
      // A regular file only: a symlink could point out of the vault (CONTRACT §11).
      const stat = await fs.lstat(abs).catch(() => null);
      if (!stat?.isFile()) continue;
      const body = await fs.readFile(abs).catch(() => null);
      if (body) return this.prepared(body, name.endsWith('.png') ? 'image/png' : 'image/x-icon');
    }
    return this.prepared(await fs.readFile(BUILT_IN), 'image/x-icon');
  }

  private prepared(body: Buffer, type: string): Promise<Prepared> {
    return prepare({
      status: 200,
      body,
      compress: false,
      headers: [
        ['content-type', type],
        ['cache-control', 'public, max-age=3600'],
        ['x-content-type-options', 'nosniff'],
      ],
    });
  }
}
