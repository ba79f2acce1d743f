// spec 5.6, 7: with PUBLIC=false every address answers 401 to a visitor, the
// feed and sitemap too, while /robots.txt answers 200 `Disallow: /` (a crawler
// must learn to stay away, not that it failed to sign in).
import type { IncomingMessage, ServerResponse } from 'node:http';

export const PRIVATE_ROBOTS = 'User-agent: *\nDisallow: /\n';

/** Answers the request when the gate stops it; returns true when it did. */
export function privateGate(pathname: string, req: IncomingMessage, res: ServerResponse): boolean {
  if (pathname === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(PRIVATE_ROBOTS) });
    res.end(req.method === 'HEAD' ? undefined : PRIVATE_ROBOTS);
    return true;
  }
  const body = '<!doctype html><meta charset="utf-8"><title>Sign in</title><p>This site is private. <a href="/admin/">Sign in</a> to see it.</p>\n';
  res.writeHead(401, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
