// sirv alone serving a static snapshot, the baseline the page table is measured against
// (`npm run bench serve`): `node --import tsx _sirv-server.ts <folder> <port>`. Pages are
// found as nginx finds them (`/a` → a.html or a/index.html); their .br and .gz, made by
// startSirv for the routes measured, are sent as sirv sends any precompressed file.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import sirv from 'sirv';

export interface SirvServer {
  url: string;
  stop(): Promise<void>;
}

/** The file sirv answers `route` with in `root`, as its `extensions: ['html']` finds it. */
async function pageFile(root: string, route: string): Promise<string> {
  const base = path.join(root, decodeURIComponent(route));
  for (const candidate of [base, `${base}.html`, path.join(base, 'index.html')]) {
    if ((await fs.stat(candidate).catch(() => null))?.isFile()) return candidate;
  }
  throw new Error(`the snapshot has no page for ${route}`);
}

/** Writes each route's .br and .gz (brotli 6, gzip 6: what the page table makes), then starts sirv in its own process. */
export async function startSirv(root: string, routes: string[], port: number): Promise<SirvServer> {
  for (const route of routes) {
    const file = await pageFile(root, route);
    const body = await fs.readFile(file);
    await fs.writeFile(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }));
    await fs.writeFile(`${file}.gz`, gzipSync(body, { level: 6 }));
  }
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), root, String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (!(await fetch(url + routes[0]).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error('the sirv baseline did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    async stop() {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [root, port] = process.argv.slice(2) as [string, string];
  const files = sirv(root, { dev: false, etag: true, extensions: ['html'], brotli: true, gzip: true });
  http.createServer((req, res) => files(req, res)).listen(Number(port), '127.0.0.1');
}
