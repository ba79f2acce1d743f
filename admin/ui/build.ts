// `npm run build:ui`: bundles the admin web app (Preact + CodeMirror 6) with esbuild
// into admin/ui/dist: index.html, hashed assets (+ .gz/.br beside them), and prints
// the gzipped size of the first screen's JavaScript, which must stay under 300 KB.
// `npm start` runs it only when the stamp of its inputs (the app's sources, this script,
// the locked dependencies: admin/ui/stamp.mjs) differs from the last build's.
import { build, type Metafile } from 'esbuild';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { DIST, inputsStamp, isUpToDate, STAMP, stampReads } from './stamp.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export { DIST, inputsStamp, isUpToDate };
export const FIRST_SCREEN_LIMIT = 300 * 1024;

/** Every output the entry loads before it can draw: the entry and its static imports. */
export function firstScreenFiles(metafile: Metafile, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of metafile.outputs[file]?.imports ?? []) if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
  };
  visit(entry);
  return [...seen];
}

function page(script: string, style: string | null, preloads: string[]): string {
  // Absolute, so the shell answers the same at /admin and /admin/.
  const rel = (f: string) => '/admin/' + f;
  return `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light dark">
<title>Vault admin</title>
<link rel="icon" href="data:,">
${style ? `<link rel="stylesheet" href="${rel(style)}">\n` : ''}${preloads.map((p) => `<link rel="modulepreload" href="${rel(p)}">\n`).join('')}<script type="module" src="${rel(script)}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The admin app needs JavaScript.</noscript>
</body>
</html>
`;
}

export async function buildUi(): Promise<{ firstScreenGzip: number; files: string[] }> {
  const stage = path.join(HERE, `.dist-${process.pid}`);
  await fs.rm(stage, { recursive: true, force: true });
  try {
    return await buildInto(stage);
  } finally {
    await fs.rm(stage, { recursive: true, force: true });
  }
}

async function buildInto(stage: string): Promise<{ firstScreenGzip: number; files: string[] }> {
  // Taken before bundling: a source edited during the build makes the next run build again.
  const stamp = await inputsStamp();
  const result = await build({
    absWorkingDir: HERE,
    entryPoints: { app: 'src/main.tsx' },
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: path.join(stage, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    minify: true,
    sourcemap: 'linked',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const meta = result.metafile;
  // A file the stamp does not read would leave `npm start` serving an old bundle after it changed.
  const unread = Object.keys(meta.inputs)
    .filter((f) => !/^\([a-z-]+\):/.test(f)) // esbuild's stand-ins (`(disabled):fs`), no files
    .map((f) => path.resolve(HERE, f))
    .filter((f) => !f.split(path.sep).includes('node_modules') && !stampReads(f));
  if (unread.length > 0) throw new Error(`the admin app is made from files its stamp does not read (admin/ui/stamp.mjs INPUTS): ${unread.map((f) => path.relative(HERE, f)).join(', ')}`);
  const outputs = Object.keys(meta.outputs);
  const entry = outputs.find((f) => meta.outputs[f]!.entryPoint === 'src/main.tsx')!;
  const css = outputs.find((f) => f.endsWith('.css')) ?? null;
  const first = firstScreenFiles(meta, entry);
  const relToStage = (f: string) => path.relative(stage, path.join(HERE, f)).split(path.sep).join('/');

  let firstScreenGzip = 0;
  for (const file of outputs) {
    if (!/\.(js|css)$/.test(file)) continue;
    const abs = path.join(HERE, file);
    const data = await fs.readFile(abs);
    const gz = gzipSync(data, { level: 9 });
    await fs.writeFile(abs + '.gz', gz);
    await fs.writeFile(abs + '.br', brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    if (first.includes(file)) firstScreenGzip += gz.length;
  }
  await fs.writeFile(
    path.join(stage, 'index.html'),
    page(
      relToStage(entry),
      css ? relToStage(css) : null,
      first.filter((f) => f !== entry).map(relToStage),
    ),
  );

  await fs.writeFile(path.join(stage, STAMP), stamp + '\n');
  // Swap the finished folder in, so a running server never sees half a build.
  const old = path.join(HERE, `.dist-old-${process.pid}`);
  await fs.rename(DIST, old).catch(() => undefined);
  await fs.rename(stage, DIST);
  await fs.rm(old, { recursive: true, force: true });
  return { firstScreenGzip, files: first.map(relToStage) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  if (!process.argv.includes('--force') && (await isUpToDate(await inputsStamp()))) {
    process.stdout.write(`admin ui up to date (its inputs are unchanged; --force rebuilds)\n`);
    process.exit(0);
  }
  const { firstScreenGzip, files } = await buildUi();
  const kb = (firstScreenGzip / 1024).toFixed(1);
  process.stdout.write(
    `admin ui built in ${Date.now() - started} ms: first screen JavaScript ${kb} KB gzipped (${files.length} files; limit ${FIRST_SCREEN_LIMIT / 1024} KB)\n`,
  );
  if (firstScreenGzip > FIRST_SCREEN_LIMIT) {
    process.stderr.write(`admin ui: the first screen's JavaScript is over ${FIRST_SCREEN_LIMIT / 1024} KB gzipped\n`);
    process.exit(1);
  }
}
