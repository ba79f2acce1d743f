#!/usr/bin/env node
// `vault-service`: the one command (the package's bin). `vault-service --help` lists the
// commands (start, build, set-password, hash-password) and every setting's flag.
import { relaunchWithFlags } from './cli/relaunch.ts';

// A build started without the snapshot's V8 flags starts again with them (cli/relaunch.ts),
// decided before the rest of the command line is loaded: the first process stays small.
if (process.argv[2] === 'build') {
  const relaunched = relaunchWithFlags();
  if (relaunched) process.exit(await relaunched);
}
const { runCli } = await import('./cli/run.ts');
await runCli(process.argv.slice(2));
