// Public addresses (CONTRACT §6): a note `Folder/My Note.md` lives at `/Folder/My-Note`
// (path without extension, spaces as `-`, percent-encoded on the wire), its letters in
// composed form (`composed`). Addresses are a branded type: a vault path cannot be passed
// where an address belongs.
import { composed } from '../vault-names.ts';
import type { VaultPath } from '../vault-path.ts';

/** A decoded public address: starts with `/`, no trailing slash (except the front page). */
export type Address = string & { readonly __brand: 'Address' };

export const FRONT_PAGE = '/' as Address;

/** The folder of the site's smaller copies of images (site/render/image-variants.ts), served as never changing. */
export const IMAGE_COPIES_SEGMENT = '_img';

/** First segments the site keeps for itself; a note or an attachment living there is not published. */
export const RESERVED_SEGMENTS = new Set(['api', 'admin', 'topic', 'folder', 'page', '_s', '_service', IMAGE_COPIES_SEGMENT]);
/** The first segments the admin app answers (scripts/service.ts), matched as written. */
const ADMIN_SEGMENTS = new Set(['api', 'admin']);
/**
 * The folders the site writes its own pages into, kept as the site spells them: a vault folder
 * so named in another case is the vault's (CONTRACT §6: `Folder/My Note.md` is `/Folder/My-Note`).
 */
const PAGE_SEGMENTS = new Set(['topic', 'folder', 'page']);
// `/favicon.ico` is the vault's icon (CONTRACT §7): a note there would replace it with a page.
export const RESERVED_ADDRESSES = new Set(['/feed.xml', '/sitemap.xml', '/robots.txt', '/404', '/404.html', '/custom.css', '/search', '/search.json', '/favicon.ico']);

/** A vault path without its extension as an address: composed, spaces as `-`. */
export function pathAddress(withoutExt: string): Address {
  return ('/' + composed(withoutExt).split('/').map((seg) => seg.replace(/\s/g, '-')).join('/')) as Address;
}

export function noteAddress(p: VaultPath): Address {
  return pathAddress(p.replace(/\.(md|markdown|tex)$/i, ''));
}

/**
 * CONTRACT §7: `permalink: a/b` publishes the note at `/a/b`. Slashes around it and
 * repeated ones go, spaces become `-` (as in a path's address); a value with `.`/`..`
 * segments or control characters is no address (the note keeps its own).
 */
/** `permalink: /`: the note asks to be the site's front page (its home note, spec D.3). */
export function claimsFrontPage(value: unknown): boolean {
  return typeof value === 'string' && /^\s*\/+\s*$/.test(value);
}

export function permalinkAddress(value: unknown): Address | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const segments = composed(String(value))
    .trim()
    .split('/')
    .map((seg) => seg.trim().replace(/\s+/g, '-'))
    .filter((seg) => seg !== '');
  // eslint-disable-next-line no-control-regex
  if (segments.length === 0 || segments.some((seg) => seg === '.' || seg === '..' || /[\u0000-\u001f?#\\]/.test(seg))) return null;
  return ('/' + segments.join('/')) as Address;
}

const reservedMemo = new Map<string, boolean>();

/** True when an address is the site's own (topic pages, feed, assets…) or the admin's. */
export function isReservedAddress(address: Address): boolean {
  let reserved = reservedMemo.get(address);
  if (reserved === undefined) {
    reserved = reservedSlow(address);
    if (reservedMemo.size > 200_000) reservedMemo.clear();
    reservedMemo.set(address, reserved);
  }
  return reserved;
}

/**
 * True when an address lies in a folder the site keeps for itself (RESERVED_SEGMENTS, or a
 * folder named like a page's file): no vault file is published there. The single files the
 * site serves itself (RESERVED_ADDRESSES: the vault's favicon.ico among them) are not folders.
 */
export function isInSitesFolder(address: Address): boolean {
  return isReservedAddress(address) && !RESERVED_ADDRESSES.has(address.toLowerCase());
}

function reservedSlow(address: Address): boolean {
  if (RESERVED_ADDRESSES.has(address.toLowerCase())) return true;
  const segments = address.split('/');
  // The composer sends /api/… and /admin, /admin/… to the admin app as written: a vault's `API/`
  // folder is the site's. So is a `Topic/` or `Folder/` one (a page of it whose file is one of the
  // site's on a disk that ignores case is said by the plan: caseClashes). The asset folders
  // (`_s/`, `_img/`) are kept in any case.
  const first = segments[1] ?? '';
  if (ADMIN_SEGMENTS.has(first) || PAGE_SEGMENTS.has(first)) return true;
  const folded = first.toLowerCase();
  if (!ADMIN_SEGMENTS.has(folded) && !PAGE_SEGMENTS.has(folded) && RESERVED_SEGMENTS.has(folded)) return true;
  // A page's file is its address + `.html` (outputFileOf): under a folder named `X.html`
  // the site would need a folder where the page `/X` has its file, so nothing is published there.
  return segments.slice(1, -1).some((seg) => seg.toLowerCase().endsWith('.html'));
}

/** A vault file published as it is (an attachment): `/` and its path, composed. */
export function fileAddress(p: string): Address {
  return ('/' + composed(p)) as Address;
}

export function topicAddress(tag: string): Address {
  return `/topic/${tag}` as Address;
}

export function collectionAddress(slug: string): Address {
  return `/folder/${slug}` as Address;
}

/** Page `n` (1-based) of a list whose first page lives at `base`. */
export function listPageAddress(base: Address, n: number): Address {
  if (n <= 1) return base;
  return `${base === FRONT_PAGE ? '' : base}/page/${n}` as Address;
}

/** A later page of a list (`/topic/a/page/2`, as listPageAddress makes it): no topic may take it. */
export function isListPageAddress(address: Address): boolean {
  return /\/page\/[0-9]+$/.test(address);
}

/** The address percent-encoded for the wire (each segment, `/` kept). */
export function encodeAddress(address: string): string {
  return address
    .split('/')
    .map((seg) => encodeURIComponent(seg))
    .join('/');
}

/**
 * The output file (relative to the site folder) that holds an address's page:
 * `/Folder/My-Note` → `Folder/My-Note.html` (what static hosts serve for the
 * address without extension), the front page → `index.html`.
 */
export function outputFileOf(address: Address): string {
  if (address === FRONT_PAGE) return 'index.html';
  // A root note named `index` must not take the front page's file.
  if (address === '/index') return 'index/index.html';
  return `${address.slice(1)}.html`;
}

/** Longest name (one path segment) file systems take, in bytes. */
const MAX_NAME_BYTES = 255;

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * The longest output path, in bytes, relative to the site folder: what stays within Linux's
 * 4,096-byte PATH_MAX with the site's own folder (the data directory's path, a generation)
 * in front of it. A tag nested thousands deep made a topic page's path 10 KB long, and the
 * write of it stopped the whole build.
 */
const MAX_FILE_BYTES = 2048;

/**
 * An output file (relative to the site folder) a file system can hold: no empty, `.` or
 * `..` name, no control character, every name within 255 bytes, the whole within MAX_FILE_BYTES.
 */
export function isWritableFile(file: string): boolean {
  if (file.length > MAX_FILE_BYTES / 3 && utf8Length(file) > MAX_FILE_BYTES) return false;
  for (const name of file.split('/')) {
    // eslint-disable-next-line no-control-regex
    if (name === '' || name === '.' || name === '..' || /[\u0000-\u001f]/.test(name)) return false;
    if (name.length > MAX_NAME_BYTES / 3 && utf8Length(name) > MAX_NAME_BYTES) return false;
  }
  return true;
}

/**
 * An address whose page can be a file, and that a browser keeps as it is. A note or a
 * tag may name one that cannot (a 252-byte file name gains `.html`; a tag `..`): it is
 * not published, and the rest of the site is built, rather than the whole build failing.
 */
export function isWritableAddress(address: Address): boolean {
  // `/topic/..` would be a file (`topic/...html`), but a browser resolves the address to `/`.
  return address === FRONT_PAGE || (isWritableFile(address.slice(1)) && isWritableFile(outputFileOf(address)));
}

/** A request path decoded to an address, or null when it cannot be. */
export function decodeRequestPath(pathname: string): Address | null {
  let decoded: string;
  try {
    // Segment by segment: an encoded slash (%2F) is data, not a separator (RFC 3986 §2.2).
    // No address has one in a name, so `/Notes%2FNote` is not `/Notes/Note` (a second address
    // for every page, and a way round a proxy's rules on path prefixes).
    const segments = pathname.split('/').map(decodeURIComponent);
    if (segments.some((segment) => segment.includes('/'))) return null;
    decoded = segments.join('/');
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  if (!decoded.startsWith('/') || /[\u0000-\u001f]/.test(decoded) || decoded.split('/').includes('..')) return null;
  return decoded as Address;
}
