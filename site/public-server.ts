// The public side's request handler. Placeholder until the blog pipeline lands:
// every public address answers the 404 page, behind the PUBLIC=false gate.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../shared/config.ts';

export interface PublicServerOptions {
  config: Config;
  /** Supplied by the composer: does this request carry an admin session? */
  isAdmin: (req: IncomingMessage) => boolean;
}

export interface PublicServer {
  handle(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

export function createPublicServer(options: PublicServerOptions): PublicServer {
  return {
    handle(req, res) {
      if (!options.config.isPublic && !options.isAdmin(req)) {
        res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Sign in to see this site.\n');
        return;
      }
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Not found</title><h1>Not found</h1>\n');
    },
    async close() {},
  };
}
