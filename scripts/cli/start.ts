// `vault-service start` (and `npm start`): start the server, stop cleanly on a signal.
import type { Config } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { startService, type RunningService } from '../service.ts';
import { CommandFailure } from './failure.ts';

/** Why the server could not listen, in one sentence, for the errors a user can act on. */
function listenProblem(err: unknown, config: Config): string | null {
  const e = err as NodeJS.ErrnoException;
  if (e?.syscall !== 'listen') return null;
  const at = `${config.host}:${config.port}`;
  switch (e.code) {
    case 'EADDRINUSE':
      return `${at} is already in use: stop what listens there, or choose another port (--port or PORT)`;
    case 'EACCES':
      return `not allowed to listen on ${at} (ports below 1024 need privileges): choose another port (--port or PORT)`;
    case 'EADDRNOTAVAIL':
      return `${config.host} is not an address of this machine: choose another (--host or HOST)`;
    default:
      return null;
  }
}

export async function startCommand(config: Config): Promise<void> {
  let service: RunningService;
  try {
    service = await startService(config);
  } catch (err) {
    const problem = listenProblem(err, config);
    throw problem ? new CommandFailure(problem) : err;
  }
  // Tests and scripts read this line to find the port.
  process.stdout.write(`vault-service listening on ${service.url} (vault ${config.vaultDir})\n  admin: ${service.url}/admin/\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.info(`${signal}: stopping`);
      void service.close().then(() => process.exit(0));
    });
  }
}
