// Compiles the server to JavaScript in dist/ (tsconfig.build.json: TypeScript 5.9 rewrites
// the `.ts` imports to `.js`), with the blog's browser bundle beside it, so nothing runs
// through tsx or esbuild at run time; then bundles it into dist/bundle/ (scripts/server-bundle.ts),
// which is what the commands run.
//
//   node --import tsx scripts/compile.ts            run by scripts/compile-if-stale.cjs before
//       `npm start` and `npm run build` when a source changed: re-transpiles only the files
//       changed since their output (same compiler, same options, one file at a time; type
//       checking stays with `npm test`), usually in well under a second
//   node --import tsx scripts/compile.ts --release  `prepack`: a fresh dist/ from `tsc`
//       (type-checked; nothing is written when a type is wrong)
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { bundleClient, bundleStale, CLIENT_BUNDLES, inputsFile, type ClientBundle } from '../site/render/client-bundle.ts';
import { PROJECT_DIR } from '../shared/project-dir.ts';
import { bundleServer, SERVER_BUNDLE_DIR } from './server-bundle.ts';
import { writeTemplateCode } from '../site/render/template-code-write.ts';

const DIST = path.join(PROJECT_DIR, 'dist');
const CONFIG = path.join(PROJECT_DIR, 'tsconfig.build.json');
const BUNDLES = (Object.keys(CLIENT_BUNDLES) as ClientBundle[]).map((name) => ({ name, file: path.join(DIST, `site/client/${name}.js`) }));
const BUNDLE = BUNDLES[0]!.file;
// The stamp of the last compile (scripts/compile-if-stale.cjs compares sources with it).
const STAMP = path.join(DIST, 'scripts/cli.js');
// What `vault-service`, `npm start` and `npm run build` run.
const BIN = path.join(SERVER_BUNDLE_DIR, 'cli.js');

const mtime = (file: string) => fs.stat(file).then((s) => s.mtimeMs, () => -1);

/** The project's TypeScript files the build config names, and its compiler options. */
async function buildProgram() {
  const ts = (await import('typescript')).default;
  const parsed = ts.getParsedCommandLineOfConfigFile(CONFIG, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (!parsed) throw new Error('tsconfig.build.json could not be read');
  // One file at a time the compiler cannot read package.json's "type": every file here is ESM.
  const options = { ...parsed.options, module: ts.ModuleKind.ESNext };
  return { ts, files: parsed.fileNames.filter((f) => !/\.d\.[cm]?ts$/.test(f)), options };
}

const outputOf = (source: string) => path.join(DIST, path.relative(PROJECT_DIR, source)).replace(/\.tsx?$/, '.js');

/** Transpiles the sources newer than their output; removes outputs whose source is gone. */
async function transpileChanged(): Promise<number> {
  const { ts, files, options } = await buildProgram();
  const wanted = new Set(files.map(outputOf));
  let count = 0;
  for (const source of files) {
    const out = outputOf(source);
    if ((await mtime(out)) >= (await mtime(source))) continue;
    const { outputText } = ts.transpileModule(await fs.readFile(source, 'utf8'), { compilerOptions: options, fileName: source });
    await fs.mkdir(path.dirname(out), { recursive: true });
    await fs.writeFile(out, outputText);
    count++;
  }
  for (const name of (await fs.readdir(DIST, { recursive: true }).catch(() => [])) as string[]) {
    const abs = path.join(DIST, name);
    if (abs.endsWith('.js') && !BUNDLES.some((b) => b.file === abs) && !wanted.has(abs)) await fs.rm(abs);
  }
  return count;
}

/** The newest compiled module's time (the server bundle aside). */
async function newestCompiled(): Promise<number> {
  let latest = -1;
  for (const name of (await fs.readdir(DIST, { recursive: true })) as string[]) {
    if (name.endsWith('.js') && !path.join(DIST, name).startsWith(SERVER_BUNDLE_DIR + path.sep)) latest = Math.max(latest, await mtime(path.join(DIST, name)));
  }
  return latest;
}

/** Writes each browser bundle, and beside it the files it was made of (client-bundle.ts bundleStale). */
async function writeBundle(): Promise<void> {
  await fs.mkdir(path.dirname(BUNDLE), { recursive: true });
  for (const { name, file } of BUNDLES) {
    const { text, inputs } = await bundleClient(name);
    await fs.writeFile(file, text);
    await fs.writeFile(inputsFile(file), JSON.stringify(inputs));
  }
}

async function release(): Promise<void> {
  await fs.rm(DIST, { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [path.join(PROJECT_DIR, 'node_modules/typescript/bin/tsc'), '-p', CONFIG, '--noEmitOnError'], { stdio: 'inherit' });
  if (tsc.status !== 0) throw new Error('tsc failed: nothing was packed');
  await writeBundle();
  await bundleServer();
  await writeTemplateCode();
}

async function main(): Promise<void> {
  const started = Date.now();
  if (process.argv.includes('--release')) {
    await release();
  } else {
    const count = await transpileChanged();
    if ((await Promise.all(BUNDLES.map((b) => bundleStale(b.file)))).some(Boolean)) await writeBundle();
    // Also after a bundling that failed: the bundle is older than the code it is made of.
    if (count > 0 || (await mtime(BIN)) < (await newestCompiled())) await bundleServer();
    // The templates compiled ahead, whatever moved on (a template alone changes no code).
    await writeTemplateCode();
    // The stamp the next check compares with, even when only non-code files moved on.
    const now = new Date();
    await fs.utimes(STAMP, now, now);
    if (count === 0) return;
  }
  await fs.chmod(BIN, 0o755);
  // stderr: stdout belongs to the command npm runs next (`npm run -s hash-password` prints only the hash).
  process.stderr.write(`compiled the server into ${path.relative(process.cwd(), DIST) || '.'}/ in ${Date.now() - started} ms\n`);
}

await main();
