// The serving benchmark, in one run on one generated vault (10,000 notes by default,
// BENCH_NOTES to change): our server's requests per second on an article and on
// the home page, against nginx (1 worker, sendfile) and against sirv alone (its own
// process) serving `npm run build`'s snapshot of the same vault, all loaded with
// `wrk -t1 -c32`; the time from
// `npm start` on a data directory holding the last build to the first article
// served; the peak memory of the process group; and Lighthouse (mobile) scores of
// the home, an article and a topic page (BENCH_LIGHTHOUSE=0 skips them). Each figure is
// printed next to its target.
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureLighthouse, lighthouse, CATEGORIES } from './_lighthouse.ts';
import { compareThroughput } from './_throughput.ts';
import { freePort, noteLoad, npmStart, until200, waitForLine, type Service } from './_service.ts';
import { ensureDebian, has, waitQuiet, watchGroupMemory } from './_tools.ts';
import { generateVault, notePath } from './_vault.ts';

const NOTES = Number(process.env.BENCH_NOTES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ARTICLE_NOTE = 1234 % NOTES; // published: i % 10 < 7
const ARTICLE = '/' + notePath(ARTICLE_NOTE).replace(/\.md$/, '').split('/').map((s) => encodeURIComponent(s.replace(/ /g, '-'))).join('/');
const TOPIC = '/topic/topic1';

export async function run(): Promise<void> {
  const unavailable = ensureDebian({ wrk: 'wrk', nginx: 'nginx-light' });
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'vs-bench-serve-'));
  noteLoad();
  let service: Service | null = null;
  try {
    const vault = path.join(root, 'vault');
    await generateVault(vault, NOTES);
    console.log(`vault: ${NOTES} notes, about 70% published; article ${decodeURIComponent(ARTICLE)}`);
    const port = await freePort();

    // The static snapshot nginx serves, made by `npm run build` for the same base URL.
    const started = performance.now();
    const snap = spawnSync('npm', ['run', '--silent', 'build'], {
      cwd: PROJECT,
      env: { ...process.env, VAULT: vault, SERVICE_DATA: path.join(root, 'snap-data'), SITE_OUT: path.join(root, 'snapshot'), SITE_URL: `http://127.0.0.1:${port}`, PUBLIC_LAYOUT: 'blog' },
      encoding: 'utf8',
      timeout: 900_000,
    });
    if (snap.status !== 0) throw new Error(`npm run build failed:\n${snap.stderr.slice(-2000)}`);
    console.log(`npm run build (snapshot for nginx): ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // First start: no generation yet, a full build.
    const data = path.join(root, 'data');
    service = npmStart(vault, data, port);
    let memory = watchGroupMemory(service.proc.pid!);
    await until200(service.url + ARTICLE, performance.now(), 900_000, 200);
    const firstBuild = await waitForLine(service, /public site built: (\d+) outputs in (\d+) ms/, 60_000);
    console.log(`first start: full build of ${firstBuild[1]} outputs in ${(Number(firstBuild[2]) / 1000).toFixed(1)} s`);
    await until200(service.url + '/', performance.now(), 60_000);
    // Steady state: the first request starts preparing pages for its base URL; let that finish.
    await waitQuiet(service.proc.pid!);

    if (unavailable.includes('wrk') || !has('wrk')) {
      console.log('wrk is not installed and could not be: requests per second skipped');
    } else {
      const nginx = !unavailable.includes('nginx') && has('nginx');
      if (!nginx) console.log('nginx is not installed and could not be: the static baseline is skipped');
      await compareThroughput({
        ours: service.url,
        snapshot: nginx ? path.join(root, 'snapshot') : null,
        sirvSnapshot: path.join(root, 'snapshot'),
        work: root,
        routes: [
          ['article', ARTICLE],
          ['home', '/'],
        ],
        seconds: SECONDS,
        rounds: ROUNDS,
        freePort,
      });
    }
    await fs.stat(path.join(data, 'public-site', 'generation.v8'));
    await service.stop();
    const firstPeak = await memory.stop();

    // Restart on the data directory that holds the last build.
    const restartAt = performance.now();
    service = npmStart(vault, data, port);
    memory = watchGroupMemory(service.proc.pid!);
    const restartMs = await until200(service.url + ARTICLE, restartAt, 120_000, 5);
    await waitForLine(service, /brought up to date: (\d+) outputs changed in (\d+) ms/, 300_000);
    const upToDateMs = performance.now() - restartAt;
    console.log(`\nnpm start with the last build in the data directory: first article after ${(restartMs / 1000).toFixed(2)} s (target ≤ 2 s); up to date after ${(upToDateMs / 1000).toFixed(1)} s`);

    if (process.env.BENCH_LIGHTHOUSE === '0') console.log('\nLighthouse skipped (BENCH_LIGHTHOUSE=0)');
    else if (ensureLighthouse()) {
      console.log('\nLighthouse 12, mobile (target 100 in each)');
      console.log(`  ${'page'.padEnd(8)} ${CATEGORIES.map((c) => c.padStart(15)).join('')}`);
      for (const [name, route] of [['home', '/'], ['article', ARTICLE], ['topic', TOPIC]] as const) {
        const { scores, failing } = await lighthouse(service.url + route);
        console.log(`  ${name.padEnd(8)} ${CATEGORIES.map((c) => String(scores[c]).padStart(15)).join('')}`);
        for (const f of failing) console.log(`             below 100: ${f}`);
      }
    } else console.log('\nLighthouse could not be installed: skipped');
    await service.stop();
    service = null;
    const restartPeak = await memory.stop();
    console.log(`\npeak RSS of server + build process (target ≤ 400 MB): first start ${firstPeak.serverAndBuilderMB.toFixed(0)} MB, restart ${restartPeak.serverAndBuilderMB.toFixed(0)} MB`);
    console.log(`  whole process group with the npm wrapper: ${firstPeak.groupMB.toFixed(0)} MB / ${restartPeak.groupMB.toFixed(0)} MB`);
  } finally {
    await service?.stop();
    await fs.rm(root, { recursive: true, force: true, maxRetries: 5 });
  }
}
