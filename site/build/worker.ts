// The build process: the site builder runs here, off the server's process, so the
// public pages and the admin API stay responsive during a build. Messages are
// handled one at a time, in order; the first one carries the builder's options.
import { log } from '../../shared/log.ts';
import { SiteBuilder } from './site-builder.ts';
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';

let builder: SiteBuilder | null = null;
let chain: Promise<void> = Promise.resolve();

// The server went away: so does its builder.
process.on('disconnect', () => process.exit(0));

process.on('message', (request: WorkerRequest) => {
  if (request.type === 'init') {
    builder = new SiteBuilder(request.options);
    return;
  }
  chain = chain.then(async () => {
    let reply: WorkerReply;
    try {
      if (!builder) throw new Error('the builder was not initialised');
      const result = request.type === 'full' ? await builder!.full() : await builder!.apply(request.paths);
      reply = { id: request.id, ok: true, result };
    } catch (err) {
      log.error(`site build failed: ${(err as Error)?.stack ?? String(err)}`);
      reply = { id: request.id, ok: false, error: (err as Error)?.message ?? String(err) };
    }
    process.send!(reply);
  });
});
