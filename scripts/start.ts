// `npm start`: read the configuration, start the server, stop cleanly on a signal.
import { loadConfigOrExit } from '../shared/config.ts';
import { log } from '../shared/log.ts';
import { startService } from './service.ts';

const config = loadConfigOrExit();

const service = await startService(config);
// Tests and scripts read this line to find the port.
process.stdout.write(`vault-service listening on ${service.url} (vault ${config.vaultDir})\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log.info(`${signal}: stopping`);
    void service.close().then(() => process.exit(0));
  });
}
