// CONTRACT §11: `br`, then `gzip`, when the client accepts it. Browsers send a
// handful of distinct Accept-Encoding strings, so each one is parsed once.
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'identity';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const chosen = new Map<string, Encoding>();

/**
 * RFC 9110 §12.5.3: how much the client wants `coding` (0: not acceptable). A coding
 * named in the header has its own weight, whatever `*` says; `*` weighs the codings
 * not named; identity is acceptable unless refused by name or by `*;q=0`.
 */
export function acceptWeight(header: string, coding: string): number {
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [token = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (token === '') continue;
    const q = weightOf(params);
    if (q === null) continue;
    if (token === coding || (coding === 'gzip' && token === 'x-gzip')) return q;
    if (token === '*') star ??= q;
  }
  return star ?? (coding === 'identity' ? 1 : 0);
}

const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The `q` of an element's parameters (1 without one), or null when it is malformed. */
function weightOf(params: string[]): number | null {
  const q = params.find((p) => p.startsWith('q='));
  if (q === undefined) return 1;
  const v = q.slice(2).trim();
  return QVALUE.test(v) ? Number(v) : null;
}

/**
 * The encoding to send for an Accept-Encoding header: the compressed coding the
 * client weighs most (br on a tie), else the bytes as they are. With no coding
 * acceptable at all, identity is still sent (§12.5.3 allows it over a 415).
 */
export function pickEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  let enc = chosen.get(header);
  if (enc === undefined) {
    const br = acceptWeight(header, 'br');
    const gz = acceptWeight(header, 'gzip');
    enc = br > 0 && br >= gz ? 'br' : gz > 0 ? 'gzip' : 'identity';
    // Bounded: a client can send any string.
    if (chosen.size > 256) chosen.clear();
    chosen.set(header, enc);
  }
  return enc;
}

// Quality 6 is within a few percent of 11 on HTML, at a fraction of the time. The window fits
// the page: brotli's default 4 MB one gains nothing on a smaller page, and the memory it takes
// stays with the thread that compressed (about 14 MB over a thousand pages warmed).
const brotliOptions = (body: Buffer) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 6,
    [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    [constants.BROTLI_PARAM_LGWIN]: Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.min(constants.BROTLI_DEFAULT_WINDOW, Math.ceil(Math.log2(body.length + 1)))),
  },
});

/** Both compressed variants, off the main thread (zlib's thread pool): for warming. */
export async function compressBoth(body: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
  const [br, gz] = await Promise.all([brotliAsync(body, brotliOptions(body)), gzipAsync(body, { level: 6 })]);
  return { br, gzip: gz };
}

/**
 * The same, on this thread: for a visitor waiting on a page not yet prepared. About a
 * millisecond for a page, and never queued behind other work on the thread pool (at
 * start, the vault watcher's first scan fills it with thousands of stats).
 */
export function compressBothNow(body: Buffer): { br: Buffer; gzip: Buffer } {
  return { br: brotliCompressSync(body, brotliOptions(body)), gzip: gzipSync(body, { level: 6 }) };
}
