// Serves the built admin app (admin/ui/dist) under /admin/: the shell for /admin,
// /admin/ and any deep link, hashed assets with a year-long immutable cache and
// their precompressed .br/.gz twins. A rebuilt dist is picked up without a restart.
import { promises as fs } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import { PROJECT_DIR } from '../../../shared/project-dir.ts';

/** Built by admin/ui/build.ts; the installed package ships it built. */
export const UI_DIST = path.join(PROJECT_DIR, 'admin/ui/dist');

/** The shell is public; everything it shows comes from admin-only APIs. */
const SHELL_HEADERS: Record<string, string> = {
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  // Never framed, not even by the site's own pages: a published note may hold an iframe
  // (sanitize.ts keeps https ones), and a page of the same origin framing the signed-in app
  // under a bait once got the admin's click on Unpublish. Nothing of the app frames it.
  'x-frame-options': 'DENY',
  // CodeMirror writes its own <style> elements; previews of notes load images from anywhere.
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data: blob:; " +
    "font-src 'self' data:; connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
};

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function createUiServer(dist = UI_DIST): Handler {
  let handler: Handler | null = null;
  let builtAt = -1;

  // A non-dev sirv indexes the folder once; a new build gets a new instance.
  async function current(): Promise<Handler | null> {
    let mtime: number;
    try {
      mtime = (await fs.stat(path.join(dist, 'index.html'))).mtimeMs;
    } catch {
      return null;
    }
    if (handler && mtime === builtAt) return handler;
    builtAt = mtime;
    const serve = sirv(dist, {
      dev: false,
      etag: true,
      gzip: true,
      brotli: true,
      setHeaders(res, pathname) {
        if (pathname.startsWith('/assets/')) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
          res.setHeader('x-content-type-options', 'nosniff');
        } else {
          for (const [k, v] of Object.entries(SHELL_HEADERS)) res.setHeader(k, v);
        }
      },
      onNoMatch(_req, res) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
        res.end('Not found.\n');
      },
    });
    handler = (req, res) => serve(req, res);
    return handler;
  }

  return (req, res) => {
    void current().then((serve) => {
      if (!serve) {
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
        res.end('The admin app is not built. Run: npm run build:ui\n');
        return;
      }
      const url = req.url ?? '/admin';
      // sirv sees the dist folder's own paths: /admin/assets/x.js → /assets/x.js;
      // every other address under /admin is the app's shell (a deep link).
      const rest = url.replace(/^\/admin/, '');
      req.url = rest.startsWith('/assets/') ? rest : '/index.html';
      delete (req as { _parsedUrl?: unknown })._parsedUrl;
      serve(req, res);
    });
  };
}
