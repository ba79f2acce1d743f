// Small HTTP helpers shared by every route: JSON answers, JSON bodies with a size
// cap, and the one place a domain error's `code` becomes an HTTP status.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'polka';
import { storageFailure } from '../shared/atomic-write.ts';
import { DomainError, refuse } from '../shared/errors.ts';
import { GitError } from '../shared/git-run.ts';
import { log } from '../shared/log.ts';

/** Every code that is not a plain refusal of bad input (400). Answers keep these statuses. */
const STATUS_OF: Record<string, number> = {
  unauthorized: 401,
  wrong_password: 401,
  needs_password: 403,
  cross_site: 403,
  not_found: 404,
  stale: 409,
  exists: 409,
  read_only: 409,
  other_disk: 409,
  holds_data_dir: 409,
  bad_trash: 409,
  bad_entry: 409,
  sync_running: 409,
  busy: 409,
  not_repo: 409,
  no_vault_request: 409,
  sync_off: 409,
  index_locked: 409,
  operation_in_progress: 409,
  too_large: 413,
  json_only: 415,
  form_only: 415,
  too_many_attempts: 429,
  queue_full: 429,
  git_failed: 500,
  internal: 500,
  not_writable: 503,
  not_kept: 507,
  no_space: 507,
};

export function statusOf(code: string): number {
  return STATUS_OF[code] ?? 400;
}

/**
 * A filesystem refusal met on the way (a file where a folder is needed, a link loop, a
 * name too long): the step failed before changing anything, so it is the request's fault,
 * answered as such (CONTRACT §11). The sentence never carries the absolute path Node's does.
 */
const FS_REFUSALS: Record<string, [code: string, sentence: string, reason: string]> = {
  ENOENT: ['not_found', 'Nothing exists at that path.', 'nothing_there'],
  ENOTDIR: ['not_found', 'Nothing exists at that path: a part of it on the way is a file, not a folder.', 'file_on_the_way'],
  EEXIST: ['exists', 'Something is in the way: a file stands where the path needs a folder.', 'file_in_the_way'],
  EISDIR: ['exists', 'A folder stands where the path needs a file.', 'folder_in_the_way'],
  ENOTEMPTY: ['exists', 'A folder that is not empty stands at the new path.', 'folder_not_empty'],
  ELOOP: ['link_loop', 'The path runs through a loop of symbolic links.', 'loop'],
  ENAMETOOLONG: ['name_too_long', 'A name in the path is too long for the disk.', 'disk'],
};

export function fsRefusal(err: unknown): DomainError | null {
  const { code: errno, syscall, path: where } = (err ?? {}) as NodeJS.ErrnoException;
  // Only a filesystem call's own error (a missing program to spawn is no bad input).
  if (typeof where !== 'string' || !syscall || syscall.startsWith('spawn')) return null;
  const known = errno ? FS_REFUSALS[errno] : undefined;
  return known ? refuse(known[0], `${known[1]} Nothing was changed.`, { reason: known[2] }) : null;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  const data = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(data),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(data);
}

/** A refusal answered as a page of our own making (it echoes a visitor's fields, escaped): no script, no frames, nothing loaded. */
export function sendRefusalPage(res: ServerResponse, err: DomainError, html: string): void {
  const body = Buffer.from(html);
  res.writeHead(statusOf(err.code), {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(body.length),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  });
  res.end(body);
}

/** The client went away while its body was being read: nobody to answer, nothing to log. */
const clientGone = (err: unknown) => (err as NodeJS.ErrnoException)?.code === 'ECONNRESET' && (err as Error).message === 'aborted';

export function sendError(res: ServerResponse, err: unknown): void {
  if (res.headersSent || clientGone(err)) {
    // Logged once with its stack each, abandoned bodies filled the log: 3,000 made 15,000 lines (a reviewer's find).
    res.destroy();
    return;
  }
  if (err instanceof DomainError) {
    sendJson(res, statusOf(err.code), { error: err.message, code: err.code, ...err.details });
    return;
  }
  if (err instanceof GitError) {
    // The line is already scrubbed of the token and URL user info.
    sendJson(res, statusOf('git_failed'), { error: `git failed: ${err.line}`, code: 'git_failed', gitError: err.line });
    return;
  }
  const refusal = fsRefusal(err);
  if (refusal) {
    log.warn(`${refusal.code}: ${(err as Error).message}`);
    sendJson(res, statusOf(refusal.code), { error: refusal.message, code: refusal.code, ...refusal.details });
    return;
  }
  // A disk that is full or cannot be written, met by a step no domain function named
  // (a rename's own mkdir or rename): the same clear answer as a failed save, never a 500.
  const storage = storageFailure(err);
  if (storage instanceof DomainError) {
    const errno = (err as NodeJS.ErrnoException).code;
    log.warn(`${storage.code}: ${(err as Error).message}`);
    const sentence = storage.code === 'no_space' ? `The disk is full (${errno}).` : `The folder cannot be written (${errno}).`;
    sendJson(res, statusOf(storage.code), { error: `${sentence} The request did not complete.`, code: storage.code, reason: 'request', errno });
    return;
  }
  log.error(`unexpected error: ${(err as Error)?.stack ?? String(err)}`);
  sendJson(res, statusOf('internal'), { error: 'Something went wrong on the server.', code: 'internal' });
}

/** Default cap for a JSON body: a note of several MB fits, a flood does not. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw refuse('too_large', `The request body is larger than ${limit} bytes.`, { reason: 'body', max: limit });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw refuse('too_large', `The request body is larger than ${limit} bytes.`, { reason: 'body', max: limit });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Parses the JSON body (an empty body is `{}`); anything but an object is a 400. */
export async function readJsonBody(req: IncomingMessage, limit?: number): Promise<Record<string, unknown>> {
  const raw = await readBody(req, limit);
  if (raw.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw refuse('bad_json', 'The body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw refuse('bad_json', 'The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** A form-encoded body as fields (the first value of a repeated one). */
export async function readFormBody(req: IncomingMessage, limit?: number): Promise<Record<string, unknown>> {
  const params = new URLSearchParams((await readBody(req, limit)).toString('utf8'));
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of params) if (!(key in out)) out[key] = value;
  return out;
}

export function isFormBody(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

type Handler = (req: Request, res: Response) => Promise<unknown> | unknown;

/** Wraps an async handler: a returned value is sent as 200 JSON, a throw as an error answer. */
export function route(handler: Handler) {
  return async (req: Request, res: Response) => {
    try {
      const result = await handler(req, res);
      if (result !== undefined && !res.headersSent) sendJson(res, 200, result);
    } catch (err) {
      sendError(res, err);
    }
  };
}

/** Query values as Polka gives them: a string, or several for a repeated key. */
export function queryValues(req: Request, key: string): string[] {
  const params = new URLSearchParams(req.search ?? '');
  return params.getAll(key);
}

export function queryOne(req: Request, key: string): string | undefined {
  return queryValues(req, key)[0];
}

export function clientAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}
