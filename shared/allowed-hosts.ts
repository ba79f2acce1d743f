// ALLOWED_HOSTS (CONTRACT §15): when set, a request naming any other host is answered 421
// (Misdirected Request) before anything reads it. Without SITE_URL a page's links come from
// the name a request gives; this is the operator's way to say which names are theirs.
import type { IncomingMessage, ServerResponse } from 'node:http';

function first(value: string | string[] | undefined): string | null {
  const v = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim().toLowerCase();
  return v ? v : null;
}

/** `name` without its port (a bracketed IPv6 address keeps its brackets). */
function withoutPort(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/** Whether `host` is on the list: exactly, or by its name when the list's entry names no port. */
function listed(host: string, allowed: readonly string[]): boolean {
  return allowed.includes(host) || allowed.includes(withoutPort(host));
}

/** Every host the request names (its Host, and a proxy's X-Forwarded-Host when present) must be listed. */
export function hostAllowed(req: IncomingMessage, allowed: readonly string[]): boolean {
  const host = first(req.headers.host);
  if (host === null || !listed(host, allowed)) return false;
  const forwarded = first(req.headers['x-forwarded-host']);
  return forwarded === null || listed(forwarded, allowed);
}

export function sendMisdirected(res: ServerResponse): void {
  const body = 'This server does not answer for that host name.\n';
  res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store', connection: 'close' });
  res.end(body);
}
