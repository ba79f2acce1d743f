// A response made ready before it is asked for: the bytes in every
// encoding and the header lists that go with them, so sending one is a lookup
// and a write. The signed-in admin's Edit link, and the notice a visitor's own comment
// earns, are spliced in per request.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { compressBoth, compressBothNow, pickEncoding, type Encoding } from './encoding.ts';
import { noticeHtml, type EditSplice, type NoticeKind, type NoticeSplice } from './substitute.ts';

export interface Variant {
  /** null: the plain bytes of a page held compressed, made when a client asks for them (bytesOf). */
  body: Buffer | null;
  /** Flat [name, value, …] list for writeHead. */
  head: string[];
}

export interface Prepared {
  status: number;
  etag: string;
  /**
   * A page both codings shrink holds only them: browsers ask for br or gzip, and its plain
   * bytes were most of what the cache held for it (a realistic topic page: 36 KB plain, 14
   * compressed). The plain bytes are made from the gzip copy when first asked for, then kept.
   */
  variants: Record<Encoding, Variant>;
  /** Headers of a 304: the same validators and cache rules, no body headers. */
  notModified: string[];
  edits: EditSplice[];
  /** Where a comment's notice goes (articles with comments on). */
  notice: NoticeSplice | null;
  /** Bytes held (for the cache's budget). */
  size: number;
  /** Told how many bytes more the page holds once its plain bytes are made (the cache counts them). */
  onHeld?: (bytes: number) => void;
  /** Sent as it is for now: too big to compress while a visitor waited (page-source.ts compresses it off this thread). */
  deferred: boolean;
}

export interface PrepareInput {
  status: number;
  body: Buffer;
  /** Headers shared by every variant (content type, cache rules, Vary, security). */
  headers: [string, string][];
  edits?: EditSplice[];
  notice?: NoticeSplice | null;
  /** Compress (text); images and fonts are sent as they are. */
  compress: boolean;
}

function flat(pairs: [string, string][]): string[] {
  return pairs.flat();
}

export function etagOf(body: Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/**
 * A page bigger than this is not compressed while a visitor waits: brotli takes about 5 ms a
 * 100 KB on this thread, and a 4 MB page took 0.2 s of every request for it (with its HEAD and
 * 304) until it was cached. It goes out as it is, and is compressed off the thread for the next.
 */
export const COMPRESS_NOW_MAX = 256 * 1024;
/** Nor ever past this: the compressed copies would take a thread-pool thread for seconds. */
export const COMPRESS_MAX = 4 * 1024 * 1024;

const worthCompressing = (input: PrepareInput, max: number) => input.compress && input.body.length > 256 && input.body.length <= max;

export async function prepare(input: PrepareInput): Promise<Prepared> {
  return assemble(input, worthCompressing(input, COMPRESS_MAX) ? await compressBoth(input.body) : null, false);
}

/** `prepare` without leaving this thread (a visitor is waiting); a big page is left uncompressed (`deferred`). */
export function prepareNow(input: PrepareInput): Prepared {
  const now = worthCompressing(input, COMPRESS_NOW_MAX);
  return assemble(input, now ? compressBothNow(input.body) : null, !now && worthCompressing(input, COMPRESS_MAX));
}

/**
 * zlib hands back a view into its 16 KB output chunk: kept as it is, a 2 KB page would
 * hold the whole chunk. Held bytes are copied to a buffer of their own size.
 */
function ownBytes(b: Buffer): Buffer {
  if (b.buffer.byteLength <= b.length * 1.25) return b;
  const own = Buffer.allocUnsafeSlow(b.length);
  b.copy(own);
  return own;
}

function assemble(input: PrepareInput, packed: { br: Buffer; gzip: Buffer } | null, deferred: boolean): Prepared {
  const { body, status } = input;
  const etag = etagOf(body);
  const common: [string, string][] = [...input.headers, ['etag', etag]];
  const make = (b: Buffer, encoding: string | null): Variant => ({
    body: b,
    head: flat([...common, ...(encoding ? [['content-encoding', encoding] as [string, string]] : []), ['content-length', String(b.length)]]),
  });
  const brShrinks = packed !== null && packed.br.length < body.length;
  const gzipShrinks = packed !== null && packed.gzip.length < body.length;
  const identity = brShrinks && gzipShrinks ? { body: null, head: make(body, null).head } : make(ownBytes(body), null);
  const br = brShrinks ? make(ownBytes(packed!.br), 'br') : identity;
  const gzip = gzipShrinks ? make(ownBytes(packed!.gzip), 'gzip') : identity;
  const size = (identity.body?.length ?? 0) + (br === identity ? 0 : br.body!.length) + (gzip === identity ? 0 : gzip.body!.length) + 512;
  return { status, etag, variants: { identity, br, gzip }, notModified: flat(common), edits: input.edits ?? [], notice: input.notice ?? null, size, deferred };
}

/** A variant's bytes: the plain ones of a page held compressed are made from its gzip copy once, then kept. */
function bytesOf(p: Prepared, v: Variant): Buffer {
  if (v.body) return v.body;
  const plain = gunzipSync(p.variants.gzip.body!);
  v.body = plain;
  p.size += plain.length;
  p.onHeld?.(plain.length);
  return plain;
}

function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === etag || ifNoneMatch === '*') return true;
  const bare = etag.slice(2);
  return ifNoneMatch.split(',').some((t) => {
    const v = t.trim();
    return v === etag || v === bare || v === '*';
  });
}

/**
 * Sends a prepared response: 304 when the client holds it, HEAD without a body. `notice`:
 * the visitor comes back from the comment form (a rare answer, made for them alone).
 */
export function sendPrepared(req: IncomingMessage, res: ServerResponse, p: Prepared, admin = false, notice: NoticeKind | null = null): void {
  const shown = notice && p.notice ? { at: p.notice.at, html: noticeHtml(p.notice[notice]) } : null;
  if ((admin && p.edits.length) || shown) {
    const splices = admin ? [...p.edits] : [];
    if (shown) splices.push(shown);
    return sendWithEdits(req, res, p, splices.sort((a, b) => a.at - b.at), `${admin && p.edits.length ? 'e' : ''}${shown ? 'n' : ''}`);
  }
  const inm = req.headers['if-none-match'];
  if (inm !== undefined && p.status === 200 && matches(inm, p.etag)) {
    res.writeHead(304, p.notModified);
    res.end();
    return;
  }
  const v = p.variants[pickEncoding(req.headers['accept-encoding'])];
  res.writeHead(p.status, v.head);
  res.end(req.method === 'HEAD' ? undefined : bytesOf(p, v));
}

/** The admin's page (or a visitor's with a notice): the visitor's bytes with the splices in place, uncompressed. */
function sendWithEdits(req: IncomingMessage, res: ServerResponse, p: Prepared, splices: EditSplice[], tag: string): void {
  const source = bytesOf(p, p.variants.identity);
  const parts: Buffer[] = [];
  let last = 0;
  for (const e of splices) {
    parts.push(source.subarray(last, e.at), Buffer.from(e.html));
    last = e.at;
  }
  parts.push(source.subarray(last));
  const body = Buffer.concat(parts);
  const etag = p.etag.slice(0, -1) + `-${tag}"`;
  const head: string[] = [];
  const v = p.variants.identity.head;
  for (let i = 0; i < v.length; i += 2) {
    const name = v[i]!;
    if (name === 'etag') head.push(name, etag);
    else if (name === 'content-length') head.push(name, String(body.length));
    else head.push(name, v[i + 1]!);
  }
  const inm = req.headers['if-none-match'];
  if (inm !== undefined && p.status === 200 && matches(inm, etag)) {
    res.writeHead(304, head.filter((_, i) => head[i - (i % 2)] !== 'content-length'));
    res.end();
    return;
  }
  res.writeHead(p.status, head);
  res.end(req.method === 'HEAD' ? undefined : body);
}
