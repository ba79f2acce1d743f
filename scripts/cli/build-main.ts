// `npm run build` as one CommonJS file, dist/bundle/build.js (scripts/server-bundle.ts),
// which scripts/cached-bundle.mjs compiles with V8's code cache: a build's own code is
// compiled once per version of it, not at every build (issue 12). The same command line
// as `vault-service build` (scripts/cli.ts), without a top-level await a script cannot hold.
import { relaunchWithFlags } from './relaunch.ts';
import { runCli } from './run.ts';

const relaunched = relaunchWithFlags();
if (relaunched) void relaunched.then((code) => process.exit(code));
else void runCli(process.argv.slice(2));
