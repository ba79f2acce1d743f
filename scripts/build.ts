// `node --import tsx scripts/build.ts [flags]`, as scripts and tests call it: `vault-service build`.
import { runCli } from './cli/run.ts';

await runCli(['build', ...process.argv.slice(2)]);
