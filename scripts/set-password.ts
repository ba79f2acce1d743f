// `node --import tsx scripts/set-password.ts [flags]`, as scripts and tests call it: `vault-service set-password`.
import { runCli } from './cli/run.ts';

await runCli(['set-password', ...process.argv.slice(2)]);
