// RFC 9110 §14 and §13.1.5: the Range and If-Range of an attachment request, read
// here so that sirv (whose own parser trusts the header) only ever sees a range it
// answers correctly, or none.
import { promises as fs } from 'node:fs';
import type { IncomingMessage } from 'node:http';

/** What to do with a request's Range header. */
export type RangeAnswer =
  /** Serve bytes `start`..`end` (inclusive) with a 206. */
  | { kind: 'range'; start: number; end: number }
  /** 416 with `Content-Range: bytes *\/size`. */
  | { kind: 'unsatisfiable' }
  /** Ignore the header: 200 with the whole file. */
  | { kind: 'whole' };

const WHOLE: RangeAnswer = { kind: 'whole' };
const SPEC = /^(\d*)-(\d*)$/;

/**
 * The answer to `Range: <header>` for a file of `size` bytes. An invalid header,
 * another unit, or several ranges are ignored (§14.2 lets a server ignore any Range);
 * a single range starting past the end is unsatisfiable (§14.1.1, §15.5.17).
 */
export function byteRange(header: string, size: number): RangeAnswer {
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return WHOLE;
  // §5.6.1: a list's empty elements do not count.
  const specs = header
    .slice(eq + 1)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (specs.length !== 1) return WHOLE;
  const m = SPEC.exec(specs[0]!);
  if (!m || (m[1] === '' && m[2] === '')) return WHOLE;
  if (m[1] === '') {
    // suffix-range: the last N bytes (all of them when the file is shorter).
    const length = Number(m[2]);
    if (length === 0) return { kind: 'unsatisfiable' };
    if (size === 0) return WHOLE;
    return { kind: 'range', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? Infinity : Number(m[2]);
  if (last < start) return WHOLE;
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end: Math.min(last, size - 1) };
}

/**
 * §13.1.5: does an If-Range validator let the Range apply? An entity tag must match
 * strongly, and the attachment's ETags are weak, so a tag never does; a date must be
 * the file's Last-Modified exactly.
 */
export function ifRangeHolds(ifRange: string | undefined, lastModified: string): boolean {
  if (ifRange === undefined) return true;
  const v = ifRange.trim();
  if (v.startsWith('"') || v.startsWith('W/')) return false;
  return v === lastModified;
}

/**
 * Leaves on `req` only a Range sirv 3 answers right: one `bytes=start-end` within the
 * file (a 206), `bytes=<size>-` (sirv's 416 with `bytes *\/size`), or none (a 200).
 * sirv reads a last byte of 0 as "to the end", so `bytes=0-0` of a longer file is
 * answered whole, which §14.2 allows. `file` is the attachment on disk.
 */
export async function settleRange(req: IncomingMessage, file: string): Promise<void> {
  const header = req.headers.range;
  if (header === undefined) return;
  delete req.headers.range;
  // §14.2: range handling is defined for GET only.
  if (req.method !== 'GET') return;
  const stats = await fs.stat(file).catch(() => null);
  if (!stats?.isFile()) return;
  const ifRange = req.headers['if-range'];
  if (!ifRangeHolds(Array.isArray(ifRange) ? ifRange[0] : ifRange, stats.mtime.toUTCString())) return;
  const answer = byteRange(header, stats.size);
  if (answer.kind === 'unsatisfiable') req.headers.range = `bytes=${stats.size}-`;
  else if (answer.kind === 'range' && (answer.end > 0 || stats.size === 1)) req.headers.range = `bytes=${answer.start}-${answer.end}`;
}
