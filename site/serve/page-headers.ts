// The headers every public answer carries (CONTRACT §11), decided once per server:
// a page is revalidated (ETag), a hashed asset under /_s/ is immutable, and Vary
// names what changes the bytes: the encoding, the admin's cookie (Edit link) and,
// without SITE_URL, the headers the base URL is made from. A PUBLIC=false site's answers
// are `private` and vary by Cookie: a shared cache (a CDN, an office proxy) must never
// keep what only a signed-in admin may see (a reviewer's find: its search shards were
// `public` for a year).
import type { ServeType } from '../plan/plan-types.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';

const SAFETY: [string, string][] = [
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'strict-origin-when-cross-origin'],
];

export function contentTypeOf(type: ServeType, file: string): string {
  if (type === 'html') return 'text/html; charset=utf-8';
  if (type === 'txt') return 'text/plain; charset=utf-8';
  if (type === 'json' || file.endsWith('.json')) return 'application/json; charset=utf-8';
  if (type === 'xml') return /(^|\/)feed(-[a-z]+)?\.xml$/.test(file) ? 'application/rss+xml; charset=utf-8' : 'application/xml; charset=utf-8';
  if (file.endsWith('.css')) return 'text/css; charset=utf-8';
  if (file.endsWith('.js')) return 'text/javascript; charset=utf-8';
  if (file.endsWith('.woff2')) return 'font/woff2';
  return 'application/octet-stream';
}

export interface HeaderRules {
  /** SITE_URL: the base URL does not depend on the request. */
  fixedBase: boolean;
  /** Extra headers for HTML pages (the Content-Security-Policy). */
  pageExtra?: [string, string][];
  /** PUBLIC=false: every answer is for the signed-in admin alone. */
  isPublic?: boolean;
}

/** `cache-control` as a site's privacy has it. */
export function cacheControl(value: string, isPublic = true): string {
  return isPublic ? value : `private, ${value.replace(/^public, /, '')}`;
}

export function pageHeaders(type: ServeType, file: string, rules: HeaderRules): [string, string][] {
  const vary = rules.fixedBase ? 'Accept-Encoding, Cookie' : 'Accept-Encoding, Cookie, Host, X-Forwarded-Host, X-Forwarded-Proto';
  return [
    ['content-type', contentTypeOf(type, file)],
    ['cache-control', cacheControl('no-cache', rules.isPublic)],
    ['vary', vary],
    ...SAFETY,
    ...(type === 'html' ? (rules.pageExtra ?? []) : []),
  ];
}

/** A content-hashed asset: its name changes with its bytes, so it never needs revalidating. */
export function assetHeaders(file: string, isPublic = true): [string, string][] {
  return [['content-type', contentTypeOf('file', file)], ['cache-control', cacheControl(IMMUTABLE, isPublic)], ['vary', isPublic ? 'Accept-Encoding' : 'Accept-Encoding, Cookie'], ...SAFETY];
}
