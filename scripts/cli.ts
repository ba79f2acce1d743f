#!/usr/bin/env node
// `vault-service`: the one command (the package's bin). `vault-service --help` lists the
// commands (start, build, set-password, hash-password) and every setting's flag.
import { runCli } from './cli/run.ts';

await runCli(process.argv.slice(2));
