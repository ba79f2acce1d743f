// The admin web app: its static files under /admin/, plus the few reads
// and writes only it needs: attachments (image previews, the banner upload of spec
// D.3), the collections the vault declares (spec D.5) and a note's preview.
import type { Polka } from 'polka';
import { parseVaultPath } from '../../shared/vault-path.ts';
import type { AdminContext } from '../context.ts';
import { refuse } from '../../shared/errors.ts';
import { readJsonBody, route } from '../http.ts';
import { notePathParam, requireNotePath } from './notes.ts';
import { notePreview } from '../ui/server/preview.ts';
import { MAX_ATTACHMENT_BYTES, readAttachment, writeAttachment } from '../ui/server/attachments.ts';
import { createUiServer } from '../ui/server/static.ts';
import { parentOf } from '../vault/path-locks.ts';

export function registerUiRoutes(app: Polka, ctx: AdminContext): void {
  const serveUi = createUiServer();
  for (const pattern of ['/admin', '/admin/*']) {
    app.get(pattern, (req, res) => serveUi(req, res));
    app.head(pattern, (req, res) => serveUi(req, res));
  }

  app.get(
    '/api/collections',
    route(async () => ({ collections: await ctx.collections() })),
  );

  // A note's text (unsaved, or a revision) rendered by the site's renderer, with the site's stylesheets to show it in.
  app.post(
    '/api/preview',
    route(async (req) => {
      const p = requireNotePath(notePathParam(req));
      const body = await readJsonBody(req);
      if (typeof body.text !== 'string') throw refuse('bad_text', 'text must be a string.');
      return { ...notePreview(p, body.text, ctx.config.vaultDir), stylesheets: await ctx.siteStylesheets() };
    }),
  );

  app.get(
    '/api/file',
    route(async (req, res) => {
      const file = await readAttachment(ctx.root, notePathParam(req));
      res.writeHead(200, {
        'content-type': file.type,
        'content-length': file.data.length,
        'cache-control': 'private, no-cache',
        'x-content-type-options': 'nosniff',
        // An SVG opened on its own must not run script in the admin's origin.
        'content-security-policy': "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
      });
      res.end(file.data);
    }),
  );

  app.put(
    '/api/attachment',
    route(async (req) => {
      const p = parseVaultPath(new URLSearchParams(req.search ?? '').get('path'));
      // base64 is 4/3 of the bytes, plus the JSON around it.
      const body = await readJsonBody(req, Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 1024);
      if (typeof body.dataBase64 !== 'string' || !/^[A-Za-z0-9+/=\s]*$/.test(body.dataBase64)) {
        throw refuse('bad_data', 'dataBase64 must be the file in base64.');
      }
      // Its folder is held: the free name beside a taken one is chosen and written with no save in between.
      const saved = await ctx.writer.locks.run([parentOf(p)], () => writeAttachment(ctx.root, p, Buffer.from(body.dataBase64 as string, 'base64')));
      return { path: saved };
    }),
  );
}
