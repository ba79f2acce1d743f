// `vault-service start` (and `npm start`): start the server, stop cleanly on a signal.
import type { Config } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { startService } from '../service.ts';

export async function startCommand(config: Config): Promise<void> {
  const service = await startService(config);
  // Tests and scripts read this line to find the port.
  process.stdout.write(`vault-service listening on ${service.url} (vault ${config.vaultDir})\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.info(`${signal}: stopping`);
      void service.close().then(() => process.exit(0));
    });
  }
}
