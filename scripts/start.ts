// `node --import tsx scripts/start.ts [flags]`, as scripts and tests call it: `vault-service start`.
import { runCli } from './cli/run.ts';

await runCli(['start', ...process.argv.slice(2)]);
