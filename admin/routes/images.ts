// POST /api/image: an image pasted or dropped into a note, stored in the
// vault's attachment folder under a unique name; the answer names what `![[…]]` embeds.
import type { Polka } from 'polka';
import { refuse } from '../../shared/errors.ts';
import { parseVaultPath } from '../../shared/vault-path.ts';
import type { AdminContext } from '../context.ts';
import { readJsonBody, route } from '../http.ts';
import { MAX_ATTACHMENT_BYTES } from '../ui/server/attachments.ts';
import { storeImage } from '../ui/server/images.ts';

export function registerImageRoutes(app: Polka, ctx: AdminContext): void {
  app.post(
    '/api/image',
    route(async (req) => {
      // base64 is 4/3 of the bytes; a little more lets an oversize image be named as such, not as a broken body.
      const body = await readJsonBody(req, Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 64 * 1024);
      if (typeof body.dataBase64 !== 'string' || !/^[A-Za-z0-9+/=\s]*$/.test(body.dataBase64)) {
        throw refuse('bad_data', 'dataBase64 must be the image in base64.');
      }
      if (body.name !== undefined && body.name !== null && typeof body.name !== 'string') throw refuse('bad_name', 'name must be a file name.');
      const note = body.note === undefined || body.note === null ? null : parseVaultPath(body.note);
      return storeImage(ctx.root, ctx.skipDirs, ctx.writer.locks, { note, name: (body.name as string | null | undefined) ?? null, data: Buffer.from(body.dataBase64, 'base64') });
    }),
  );
}
