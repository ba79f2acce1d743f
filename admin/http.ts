// Small HTTP helpers shared by every route: JSON answers, JSON bodies with a size
// cap, and errors that carry a stable `code` plus a human sentence.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'polka';
import { PathError } from '../shared/vault-path.ts';
import { log } from '../shared/log.ts';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (code: string, message: string, extra?: Record<string, unknown>) =>
  new HttpError(400, code, message, extra);
export const notFound = (message = 'Not found.') => new HttpError(404, 'not_found', message);
export const conflict = (code: string, message: string, extra?: Record<string, unknown>) =>
  new HttpError(409, code, message, extra);

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const data = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(data),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(data);
}

export function sendError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof HttpError) {
    sendJson(res, err.status, { error: err.message, code: err.code, ...err.extra });
    return;
  }
  if (err instanceof PathError) {
    sendJson(res, 400, { error: err.message, code: err.code });
    return;
  }
  log.error(`unexpected error: ${(err as Error)?.stack ?? String(err)}`);
  sendJson(res, 500, { error: 'Something went wrong on the server.', code: 'internal' });
}

/** Default cap for a JSON body: a note of several MB fits, a flood does not. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new HttpError(413, 'too_large', `The request body is larger than ${limit} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, 'too_large', `The request body is larger than ${limit} bytes.`);
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
    throw badRequest('bad_json', 'The body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('bad_json', 'The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
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
