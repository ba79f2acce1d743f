// The site's files (content-named assets and search files under /_s/, attachments, image
// copies), sent by sirv from the live site folder: it does ETag, 304, HEAD, Range and the
// precompressed .br/.gz beside a file. sirv sits behind the public server's gate: only an
// address the site index holds comes here, and it is sent as the index's file, never by a
// path from the request, so nothing unpublished or left on disk is reachable through it.
// `_parsedUrl` below is @polka/url's cache, outside its typed API: @polka/url is pinned to one release
// (test/unit/library-pins.test.ts).
// Retired when sirv takes the file's path from its caller instead of the request's URL.
import { existsSync, promises as fs, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import { TEMP_PREFIX } from '../../shared/atomic-write.ts';
import { VARIANTS_PREFIX } from '../render/image-variants.ts';
import { settleRange } from './byte-range.ts';
import { compressBoth, compressBothNow, pickEncoding } from './encoding.ts';
import { assetHeaders, cacheControl, IMMUTABLE } from './page-headers.ts';
import { COMPRESS_MAX, COMPRESS_NOW_MAX } from './prepared.ts';
import { attachmentSecurityHeaders, isPassiveMedia } from './security-headers.ts';

type Handler = ReturnType<typeof sirv>;

/** Named by their content's hash: never changed at their address, so cached for good and compressed once. */
export const isContentNamed = (file: string): boolean => file.startsWith('_s/');

/** The compressed copies sirv looks for beside a file, by the coding each is sent with. */
const COMPANIONS = [
  ['.br', 'br'],
  ['.gz', 'gzip'],
] as const;

export class SiteFiles {
  private dir: string | null = null;
  private assets: Handler | null = null;
  private attachments: Handler | null = null;
  /** Content-named files of the live folder whose compressed copies are made, or not worth making. */
  private compressed = new Set<string>();
  private compressing = new Set<string>();

  constructor(private readonly isPublic: boolean) {}

  /**
   * Sends `file` of the live site folder `dir` (an index entry's file). `missing`: the
   * answer when it is not on disk.
   */
  send(req: IncomingMessage, res: ServerResponse, dir: string, file: string, missing: () => void): void | Promise<void> {
    if (dir !== this.dir) this.moveTo(dir);
    if (isContentNamed(file)) {
      // A range of a compressed copy is not one of the file: §14.2 lets a server ignore Range, and these are small text files a browser caches.
      delete req.headers.range;
      // sirv picks a copy by substring (`br;q=0` would get br): the coding RFC 9110 §12.5.3 chooses is all it is shown.
      const coding = pickEncoding(req.headers['accept-encoding']);
      req.headers['accept-encoding'] = coding === 'identity' ? '' : coding;
      if (coding !== 'identity') this.compress(path.join(dir, file), file);
      for (const [name, value] of assetHeaders(file, this.isPublic)) res.setHeader(name, value);
      return this.hand(this.assets!, req, res, file, missing);
    }
    for (const [name, value] of attachmentSecurityHeaders(file)) res.setHeader(name, value);
    // An image's smaller copy is named by its content's hash: it never changes at its address.
    if (file.startsWith(VARIANTS_PREFIX)) res.setHeader('cache-control', cacheControl(IMMUTABLE, this.isPublic));
    if (!this.isPublic) {
      res.setHeader('cache-control', 'private, no-cache');
      res.setHeader('vary', 'Cookie');
    }
    // sirv trusts any Range it is given: it is read here first (RFC 9110 §14).
    if (req.headers.range !== undefined) return settleRange(req, path.join(dir, file)).then(() => this.hand(this.attachments!, req, res, file, missing));
    this.hand(this.attachments!, req, res, file, missing);
  }

  /** A full build's new folder: sirv is pointed at it, and what was compressed in the old one is forgotten. */
  private moveTo(dir: string): void {
    this.dir = dir;
    this.compressed.clear();
    this.compressing.clear();
    const vary = this.isPublic ? 'Accept-Encoding' : 'Accept-Encoding, Cookie';
    // dev: each request stats its file (a build adds and removes files; no index of the folder to make again).
    this.assets = sirv(dir, { dev: true, etag: true, dotfiles: false, extensions: [], brotli: true, gzip: true, setHeaders: (res) => res.setHeader('vary', vary) });
    this.attachments = sirv(dir, { dev: true, etag: true, dotfiles: false, extensions: [] });
  }

  private hand(handler: Handler, req: IncomingMessage, res: ServerResponse, file: string, missing: () => void): void {
    // sirv reads the path @polka/url parsed (kept on the request) and decodes it with decodeURI
    // when it holds a `%`: the file's own name, each `%` escaped, whatever `?` or `#` it holds.
    // `_parsedUrl` is @polka/url's own cache, not its typed API: pinned (see this file's head).
    const pathname = '/' + file.replace(/%/g, '%25');
    req.url = pathname;
    (req as { _parsedUrl?: unknown })._parsedUrl = { pathname, search: '', query: undefined, hash: undefined, raw: pathname };
    handler(req as never, res as never, missing);
  }

  /**
   * Makes `abs`'s .br and .gz once: now when it is small (the visitor waits a few
   * milliseconds, and every later request has them), else off this thread while it is sent
   * as it is. A copy no smaller than the file is not written.
   */
  private compress(abs: string, file: string): void {
    if (this.compressed.has(abs) || this.compressing.has(abs)) return;
    const size = sizeOf(abs);
    if (size === null || size <= 256 || size > COMPRESS_MAX || isPassiveMedia(file) || existsSync(abs + '.gz') || existsSync(abs + '.br')) {
      this.compressed.add(abs);
      return;
    }
    if (size <= COMPRESS_NOW_MAX) {
      const body = readFileSync(abs);
      writeCompanions(abs, body, compressBothNow(body));
      this.compressed.add(abs);
      return;
    }
    this.compressing.add(abs);
    void fs
      .readFile(abs)
      .then(async (body) => writeCompanions(abs, body, await compressBoth(body)))
      .catch(() => null)
      .finally(() => {
        if (!this.compressing.delete(abs)) return;
        this.compressed.add(abs);
      });
  }
}

function sizeOf(abs: string): number | null {
  try {
    return statSync(abs).size;
  } catch {
    return null;
  }
}

/** Each copy whole or not at all (a temp file renamed): sirv may stat it at any moment. */
function writeCompanions(abs: string, body: Buffer, packed: { br: Buffer; gzip: Buffer }): void {
  for (const [suffix, coding] of COMPANIONS) {
    const bytes = packed[coding];
    if (bytes.length >= body.length) continue;
    const temp = path.join(path.dirname(abs), `${TEMP_PREFIX}${path.basename(abs)}${suffix}.${process.pid}`);
    try {
      writeFileSync(temp, bytes);
      renameSync(temp, abs + suffix);
    } catch {
      /* the folder was replaced by a newer build: its files are compressed when asked for */
    }
  }
}
