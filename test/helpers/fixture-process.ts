// The build fixtures (test/fixtures/build/*.ts) run as processes of their own, from the
// JavaScript the server's compile makes of them (tsconfig.build.json; test/compile-before.ts
// brings dist/ up to date): through tsx, each process, and each build thread it started, spent
// about 1.5 s more CPU loading the TypeScript, some forty processes a run.
import path from 'node:path';
import { PROJECT_DIR } from './server.ts';

/** The compiled fixture `name` (`edit-sequence`), to run as `node <file> …args`. */
export function fixtureScript(name: string): string {
  return path.join(PROJECT_DIR, 'dist/test/fixtures/build', `${name}.js`);
}
