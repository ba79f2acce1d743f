// The designer's stylesheet, custom.css (spec 2.2: in the data directory; in the vault's
// `.service/` for a CI build that has no data directory yet). Pages link it by an address
// that names its content, and not at all while it is empty: a visitor's first paint never
// waits on a request for nothing, and a changed stylesheet is a new address, cached for good.
// The server fills the link in as it serves a page (site/serve/substitute.ts), so a new
// stylesheet rebuilds nothing; a snapshot's pages are rendered with it (SnapshotParts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DATA_FILES } from '../../shared/data-path.ts';

export const CUSTOM_CSS_ADDRESS = '/custom.css';

/** The stylesheet's version (its content's digest), or null when it holds no rule. */
export function customCssVersion(css: Buffer): string | null {
  if (css.toString('utf8').trim() === '') return null;
  return createHash('sha256').update(css).digest('hex').slice(0, 12);
}

/** The element that links it, as a page's head holds it, or nothing. */
export function customCssLink(address: string | null): string {
  return address ? `<link rel="stylesheet" href="${address}">\n` : '';
}

/** The address pages link custom.css by (`/custom.css?v=…`), or null when `dir` holds none worth a request. */
export function customCssAddress(dir: string): string | null {
  let css: Buffer;
  try {
    css = readFileSync(path.join(dir, DATA_FILES.customCss));
  } catch {
    return null;
  }
  const version = customCssVersion(css);
  return version ? `${CUSTOM_CSS_ADDRESS}?v=${version}` : null;
}
