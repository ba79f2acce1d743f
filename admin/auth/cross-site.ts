// CONTRACT §11: a mutating /api/* request sent by another site is refused, whether or
// not it has a body (a bodyless `fetch(…, {mode:'no-cors'})` carries the cookie too).
// The browser tells us who sent it: `Origin` and `Sec-Fetch-Site`. A request with
// neither (curl, a script) is not a browser's cross-site request and passes.
import type { IncomingMessage } from 'node:http';
import { isHttps } from './sessions.ts';

/** Mutating routes open to other sites on purpose (visitors post to them from anywhere). */
export const CROSS_SITE_OPEN: ReadonlyArray<{ method: string; path: string }> = [
  { method: 'POST', path: '/api/comments' },
  // Not under /api/, listed so the exemption is written down in one place.
  { method: 'POST', path: '/webmention' },
];

/** CONTRACT §11: any method but GET and HEAD is checked (OPTIONS too: a route may answer it). */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

function first(value: string | string[] | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  const head = v?.split(',')[0]?.trim();
  return head ? head : null;
}

/** The origins this server answers as: its Host (or the proxy's forwarded host) and SITE_URL's. */
function ownOrigins(req: IncomingMessage, siteUrl: string | null): Set<string> {
  const own = new Set<string>();
  const proto = isHttps(req) ? 'https' : 'http';
  for (const host of [first(req.headers['x-forwarded-host']), first(req.headers.host)]) {
    if (host) own.add(`${proto}://${host.toLowerCase()}`);
  }
  if (siteUrl) {
    try {
      own.add(new URL(siteUrl).origin);
    } catch {
      /* config validated it already */
    }
  }
  return own;
}

function normalOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}

/** True when the request is a mutating one a browser sent on behalf of another site. */
export function isCrossSite(req: IncomingMessage, pathname: string, siteUrl: string | null): boolean {
  const method = (req.method ?? 'GET').toUpperCase();
  if (SAFE_METHODS.has(method)) return false;
  if (CROSS_SITE_OPEN.some((r) => r.method === method && r.path === pathname)) return false;
  const fetchSite = first(req.headers['sec-fetch-site'])?.toLowerCase();
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true;
  const origin = first(req.headers.origin);
  if (origin === null) return false;
  // `Origin: null` (a sandboxed frame, a data: page) is never our own.
  const normal = normalOrigin(origin);
  return normal === null || !ownOrigins(req, siteUrl).has(normal);
}
