// A static snapshot's pages as any static host serves them (CONTRACT §1). What the server
// fills in per request is rendered in place by the templates (render-state.ts
// SnapshotParts): the base URL, the topic row, the page policy; no Edit link, no comment
// notice. Links to the site's own addresses carry the base path of a site served under
// one. The internal topic-row file is not written.
//
// In the templates, not after them: filling markers into each rendered page made three
// more copies of it (the search for a marker flattens the template's output, each
// replacement copies it, the write flattens the policy spliced in). At 10,000 notes that
// was a fifth of what the build allocated, and 0.3 s of a 3.7 s build (alternating runs).
import { mapSrcset } from '../../shared/note/picture.ts';
import { PAGE_CSP } from '../serve/security-headers.ts';
import type { PageFinish } from './page-render.ts';
import { NAV_FILE } from '../plan/plan-outputs.ts';
import type { SnapshotParts } from './render-state.ts';
import { customCssLink } from '../plan/custom-css.ts';

/**
 * Pages link to the site's own addresses from its root (`/Posts/A-note`, `/_s/blog.css`). A
 * site served under a path (SITE_URL `https://owner.github.io/notes`, a GitHub project page)
 * needs that path in front of each of them.
 */
const basePathOf = (siteUrl: string | null): string => (siteUrl ? new URL(siteUrl).pathname.replace(/(?<!\/)\/+$/, '') : '');
const withBasePath = (html: string, basePath: string): string =>
  html
    // `data-script`: the search dialog's script, loaded when the dialog first opens.
    .replace(/(\s(?:href|src|action|poster|data-script)=")\/(?!\/)/g, `$1${basePath}/`)
    // A srcset lists candidates, each a URL and a width: every one of ours needs the path too.
    .replace(/(\ssrcset=")([^"]*)"/g, (_whole, open: string, list: string) => `${open}${mapSrcset(list, (url) => (url.startsWith('/') && !url.startsWith('//') ? basePath + url : url))}"`);

/**
 * CONTRACT §11's page policy as a <meta> element: a static host sends no header of ours.
 * `frame-ancestors` is left out (a <meta> policy cannot carry it).
 */
const SNAPSHOT_POLICY = `<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP.split('; ')
  .filter((d) => !d.startsWith('frame-ancestors'))
  .join('; ')}">`;

/** The snapshot's parts the templates render in place of the server's markers, once the topic row is rendered. */
export function snapshotParts(nav: string, customCss: string | null): SnapshotParts {
  return { nav, policy: SNAPSHOT_POLICY, style: customCssLink(customCss) };
}

/** A language's feed file (`feed-ar.xml`, `topic/x/feed-en.xml`): a static host answers its file, not `feed.xml?lang=ar`. */
const LANGUAGE_FEED = /(?:^|\/)feed-([a-z]{2})\.xml$/;

export function snapshotFinish(siteUrl: string | null): PageFinish {
  const basePath = basePathOf(siteUrl);
  return (file, body) => {
    if (file === NAV_FILE) return null;
    const lang = LANGUAGE_FEED.exec(file)?.[1];
    // Its self link names the file it is, as the host serves it.
    if (lang) return body.replace(/(<atom:link href="[^"]*\/feed)\.xml\?lang=[a-z]{2}"/, `$1-${lang}.xml"`);
    return basePath !== '' && file.endsWith('.html') ? withBasePath(body, basePath) : body;
  };
}
