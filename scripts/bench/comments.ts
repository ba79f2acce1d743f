// The comments benchmark, on one generated vault (10,000 notes by default, BENCH_NOTES to
// change) and the real server (`npm start`): the time from Approve to the comment being
// served on its article (target: median under 300 ms), next to the same run's time from a
// note saved through the API to its article serving it; and the article's requests per
// second with comments on against off (target: no measurable drop, the page is static),
// `wrk -t1 -c32`, in alternating rounds with the medians kept.
import http from 'node:http';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_PASSWORD, freePort, noteLoad, npmStart, until200, type Service } from './_service.ts';
import { ensureDebian, has, waitQuiet, wrk } from './_tools.ts';
import { generateVault, noteText, notePath, percentile } from './_vault.ts';

const NOTES = Number(process.env.BENCH_NOTES ?? 10_000);
const APPROVALS = Number(process.env.BENCH_APPROVALS ?? 25);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_MS = 300;

const addressOf = (note: string) => '/' + note.replace(/\.md$/, '').split('/').map((s) => encodeURIComponent(s.replace(/ /g, '-'))).join('/');
const ms = (n: number) => `${n.toFixed(0)} ms`;
const rps = (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`;

/** A visitor's JSON comment from its own loopback address (3 a minute per address). */
let visitor = 10;
function postComment(base: string, notePath: string, body: string): Promise<{ id: string }> {
  visitor++;
  const from = `127.0.${Math.floor(visitor / 250)}.${(visitor % 250) + 2}`;
  const data = JSON.stringify({ path: notePath, name: 'Bench reader', body });
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/comments`, { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => (res.statusCode === 202 ? resolve(JSON.parse(text)) : reject(new Error(`comment refused: ${res.statusCode} ${text}`))));
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function servedWith(url: string, token: string, started: number): Promise<number> {
  for (;;) {
    const text = await fetch(url).then((r) => r.text());
    if (text.includes(token)) return performance.now() - started;
    if (performance.now() - started > 30_000) throw new Error(`${token} never reached ${url}`);
    await new Promise((r) => setTimeout(r, 3));
  }
}

function summary(values: number[]): string {
  return `median ${ms(percentile(values, 50))}, p90 ${ms(percentile(values, 90))}, worst ${ms(Math.max(...values))}`;
}

export async function run(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'vs-bench-comments-'));
  noteLoad();
  let service: Service | null = null;
  try {
    const vault = path.join(root, 'vault');
    await generateVault(vault, NOTES);
    const i = 1234 % NOTES; // published (i % 10 < 7)
    const note = notePath(i);
    const article = addressOf(note);
    const other = notePath(2345 % NOTES);
    console.log(`vault: ${NOTES} notes, about 70% published; article ${decodeURIComponent(article)}`);
    service = npmStart(vault, path.join(root, 'data'), await freePort(), { COMMENTS: 'on' });
    await until200(service.url + article, performance.now(), 900_000, 200);
    await waitQuiet(service.proc.pid!);
    const login = await fetch(service.url + '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: BENCH_PASSWORD }) });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const admin = (method: string, route: string, body: unknown) =>
      fetch(service!.url + route, { method, headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) }).then(async (r) => {
        if (r.status !== 200) throw new Error(`${route}: ${r.status} ${await r.text()}`);
        return r.json();
      });

    // Approve → served, and the baseline of the same run: a saved note → its article served.
    const approvals: number[] = [];
    const saves: number[] = [];
    for (let n = 0; n < APPROVALS; n++) {
      const token = `COMMENT-TOKEN-${n}-${Date.now()}`;
      const { id } = await postComment(service.url, note, `A comment carrying ${token}.`);
      let started = performance.now();
      await admin('POST', '/api/comments/moderate', { id, action: 'approve' });
      approvals.push(await servedWith(service.url + article, token, started));
      await new Promise((r) => setTimeout(r, 300));
      const saved = `SAVE-TOKEN-${n}-${Date.now()}`;
      started = performance.now();
      await admin('PUT', `/api/note?path=${encodeURIComponent(other)}`, { content: noteText(2345 % NOTES, NOTES).replace(/\n\n(\S)/, `\n\n${saved} $1`) });
      saves.push(await servedWith(service.url + addressOf(other), saved, started));
      await new Promise((r) => setTimeout(r, 300));
    }
    const med = percentile(approvals, 50);
    const base = percentile(saves, 50);
    console.log(`\nApprove → comment served on the article (${APPROVALS} approvals, ${NOTES} notes): ${summary(approvals)} (target: median < ${TARGET_MS} ms: ${med < TARGET_MS ? 'met' : 'NOT met'})`);
    console.log(`  baseline, same run: a note saved via the API → its article served: ${summary(saves)}; approve/save ${(med / base).toFixed(2)}x`);

    if (!has('wrk') && ensureDebian({ wrk: 'wrk' }).length) {
      console.log('wrk is not installed and could not be: throughput skipped');
      return;
    }
    // On against off: the same article (with its comments, its form and the webmention link, or none
    // of them), switched by the setting on a server started without COMMENTS=on (which would keep them on).
    await service.stop();
    service = npmStart(vault, path.join(root, 'data'), await freePort());
    await until200(service.url + article, performance.now(), 900_000, 200);
    await waitQuiet(service.proc.pid!);
    const relog = await fetch(service.url + '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: BENCH_PASSWORD }) });
    const cookie2 = (relog.headers.get('set-cookie') ?? '').split(';')[0]!;
    const patch = (on: boolean) => fetch(service!.url + '/api/settings', { method: 'PATCH', headers: { 'content-type': 'application/json', cookie: cookie2 }, body: JSON.stringify({ comments: { enabled: on } }) });
    const toggle = async (on: boolean) => {
      await patch(on);
      for (;;) {
        const text = await fetch(service!.url + article).then((r) => r.text());
        if (text.includes('id="comment-form"') === on) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      await waitQuiet(service!.proc.pid!);
    };
    const runs = { onPlain: [] as number[], offPlain: [] as number[], onGzip: [] as number[], offGzip: [] as number[], onBr: [] as number[], offBr: [] as number[] };
    const url = service.url + article;
    for (let r = 0; r < ROUNDS; r++) {
      await toggle(true);
      await wrk(url, 1);
      runs.onPlain.push(await wrk(url, SECONDS));
      runs.onGzip.push(await wrk(url, SECONDS, ['Accept-Encoding: gzip']));
      runs.onBr.push(await wrk(url, SECONDS, ['Accept-Encoding: br, gzip']));
      await toggle(false);
      await wrk(url, 1);
      runs.offPlain.push(await wrk(url, SECONDS));
      runs.offGzip.push(await wrk(url, SECONDS, ['Accept-Encoding: gzip']));
      runs.offBr.push(await wrk(url, SECONDS, ['Accept-Encoding: br, gzip']));
    }
    const m = (v: number[]) => percentile(v, 50);
    const size = (await fetch(url).then((r) => r.text())).length;
    await toggle(true);
    const withComments = (await fetch(url).then((r) => r.text())).length;
    console.log(`\narticle throughput, wrk -t1 -c32, median of ${ROUNDS} alternating rounds of ${SECONDS} s (target: no measurable drop)`);
    console.log(`  comments on  (${APPROVALS} approved, ${withComments} B): plain ${rps(m(runs.onPlain))}, gzip ${rps(m(runs.onGzip))}, br ${rps(m(runs.onBr))}`);
    console.log(`  comments off (${size} B): plain ${rps(m(runs.offPlain))}, gzip ${rps(m(runs.offGzip))}, br ${rps(m(runs.offBr))}`);
    console.log(`  on/off: plain ${(m(runs.onPlain) / m(runs.offPlain)).toFixed(2)}x, gzip ${(m(runs.onGzip) / m(runs.offGzip)).toFixed(2)}x, br ${(m(runs.onBr) / m(runs.offBr)).toFixed(2)}x (the page is prepared bytes either way; plain bytes grow with the comments)`);
  } finally {
    await service?.stop();
    await fs.rm(root, { recursive: true, force: true, maxRetries: 5 });
  }
}
