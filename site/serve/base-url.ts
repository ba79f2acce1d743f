// spec D.7: absolute URLs come from SITE_URL, else from the request's Host and
// X-Forwarded-Proto / X-Forwarded-Host. Only well-formed values are used: a base
// URL is written into HTML and XML, so a forged header must not inject markup.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { HOST_NAME as HOST } from '../../shared/config.ts';


function first(value: string | string[] | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  const head = v.split(',')[0]!.trim();
  return head === '' ? null : head;
}

export function requestBaseUrl(req: IncomingMessage, siteUrl: string | null): string {
  if (siteUrl) return siteUrl;
  const forwardedProto = first(req.headers['x-forwarded-proto'])?.toLowerCase();
  const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const forwardedHost = first(req.headers['x-forwarded-host']);
  const host = [forwardedHost, first(req.headers.host)].find((h) => h !== null && HOST.test(h)) ?? 'localhost';
  return `${proto}://${host}`;
}
