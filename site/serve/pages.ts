// Sends a built page with its per-request substitutions (base URL, topic row,
// the admin's Edit link), an ETag and the right content type.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServeType } from '../build/plan-types.ts';
import { materialize, type Substitutions } from './substitute.ts';

function contentType(type: ServeType, file: string): string {
  if (type === 'html') return 'text/html; charset=utf-8';
  if (type === 'txt') return 'text/plain; charset=utf-8';
  return file.startsWith('feed') ? 'application/rss+xml; charset=utf-8' : 'application/xml; charset=utf-8';
}

/** Sends `abs`; returns false (nothing sent) when the file is gone. */
export async function sendPage(
  req: IncomingMessage,
  res: ServerResponse,
  page: { abs: string; file: string; type: ServeType; status: number },
  subs: Substitutions,
): Promise<boolean> {
  let raw: string;
  try {
    raw = await fs.readFile(page.abs, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  const body = materialize(raw, subs);
  const etag = `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
  const headers: Record<string, string | number> = {
    'content-type': contentType(page.type, page.file),
    'cache-control': 'no-cache',
    vary: 'Cookie, Host, X-Forwarded-Host, X-Forwarded-Proto',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    etag,
  };
  if (page.status === 200 && req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  headers['content-length'] = Buffer.byteLength(body);
  res.writeHead(page.status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
