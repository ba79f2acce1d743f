// The build worker: the site builder runs here, off the request thread, so the
// public pages and the admin API stay responsive during a build. Messages are
// handled one at a time, in order.
import { parentPort, workerData } from 'node:worker_threads';
import { log } from '../../shared/log.ts';
import { SiteBuilder, type SiteBuilderOptions } from './site-builder.ts';
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';

const builder = new SiteBuilder(workerData as SiteBuilderOptions);
let chain: Promise<void> = Promise.resolve();

parentPort!.on('message', (request: WorkerRequest) => {
  chain = chain.then(async () => {
    let reply: WorkerReply;
    try {
      const result = request.type === 'full' ? await builder.full() : await builder.apply(request.paths);
      reply = { id: request.id, ok: true, result };
    } catch (err) {
      log.error(`site build failed: ${(err as Error)?.stack ?? String(err)}`);
      reply = { id: request.id, ok: false, error: (err as Error)?.message ?? String(err) };
    }
    parentPort!.postMessage(reply);
  });
});
