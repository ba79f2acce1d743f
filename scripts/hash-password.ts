// `node --import tsx scripts/hash-password.ts [flags]`, as scripts and tests call it: `vault-service hash-password`.
import { runCli } from './cli/run.ts';

await runCli(['hash-password', ...process.argv.slice(2)]);
