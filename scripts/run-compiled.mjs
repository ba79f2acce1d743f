// `npm run build`: the compiled command line, compiled first when a source is newer than
// dist/, in one process. As a `prebuild` script the check was a second Node start (and a
// shell), about 0.07 s of every build (issue 12 times `npm run build` against Hugo).
import { compileIfStale } from './compile-if-stale.mjs';

const status = await compileIfStale();
if (status !== 0) process.exit(status);
// The command line reads its command from process.argv.slice(2), as when it is run itself.
await import('../dist/bundle/cli.js');
