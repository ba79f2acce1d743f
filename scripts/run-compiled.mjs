// `npm start` and `npm run build`: the compiled command line, in one process, once what it
// runs is up to date: the server compiled when a source is newer than dist/, and for `start`
// the admin app rebuilt when its inputs changed (prestart.mjs). As `prestart` and `prebuild`
// scripts the checks were a second Node start and a shell each: about 0.07 s of every build
// (issue 12 times `npm run build` against Hugo) and 0.15 s of every start.
import { fileURLToPath } from 'node:url';
import { compileIfStale } from './compile-if-stale.mjs';

const status = process.argv[2] === 'start' ? await (await import('./prestart.mjs')).prepareStart() : await compileIfStale();
if (status !== 0) process.exit(status);
// The command line reads its command from process.argv.slice(2), as when it is run itself.
// A build runs its code through V8's code cache (cached-bundle.mjs): one CommonJS file.
if (process.argv[2] === 'build') (await import('./cached-bundle.mjs')).runCached(fileURLToPath(new URL('../dist/bundle/build.js', import.meta.url)));
else await import('../dist/bundle/cli.js');
