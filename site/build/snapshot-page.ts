// A static snapshot's pages as any static host serves them (CONTRACT §1): what the
// server fills in per request is filled in once, as each page is first written (the
// topic row, the base URL; no Edit links), and links to the site's own addresses carry
// the base path of a site served under one. The internal topic-row file is not written.
import { PAGE_CSP } from '../serve/security-headers.ts';
import { materialize } from '../serve/substitute.ts';
import type { PageFinish } from './page-render.ts';
import { NAV_FILE } from './plan-outputs.ts';

/**
 * Pages link to the site's own addresses from its root (`/Posts/A-note`, `/_s/blog.css`). A
 * site served under a path (SITE_URL `https://owner.github.io/notes`, a GitHub project page)
 * needs that path in front of each of them.
 */
export function underBasePath(html: string, siteUrl: string | null): string {
  const basePath = siteUrl ? new URL(siteUrl).pathname.replace(/\/+$/, '') : '';
  if (basePath === '') return html;
  return html.replace(/(\s(?:href|src|action|poster)=")\/(?!\/)/g, `$1${basePath}/`);
}

/**
 * CONTRACT §11's page policy as a <meta> element: a static host sends no header of ours.
 * `frame-ancestors` is left out (a <meta> policy cannot carry it).
 */
const SNAPSHOT_CSP = `<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP.split('; ')
  .filter((d) => !d.startsWith('frame-ancestors'))
  .join('; ')}">`;

/** The policy right after the charset, before anything it governs. */
function withPolicy(html: string): string {
  const at = html.indexOf('<meta charset="utf-8">');
  if (at < 0) return html;
  const end = at + '<meta charset="utf-8">'.length;
  return `${html.slice(0, end)}\n${SNAPSHOT_CSP}${html.slice(end)}`;
}

export function snapshotFinish(nav: string, siteUrl: string | null): PageFinish {
  return (file, body) => {
    if (file === NAV_FILE) return null;
    if (!file.endsWith('.html')) return body;
    return withPolicy(underBasePath(materialize(body, { base: siteUrl ?? '', nav, admin: false }), siteUrl));
  };
}
