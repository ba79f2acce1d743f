// CONTRACT §7: `/favicon.ico` is the vault root's favicon.ico, else its favicon.png,
// else the bundled one (a browser asks for it on every site: never a 404). Held in
// memory; a change to either vault file drops it.
import { FAVICON_SOURCES, faviconOf } from './favicon-file.ts';
import { cacheControl } from './page-headers.ts';
import { prepare, type Prepared } from './prepared.ts';

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
