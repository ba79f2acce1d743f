// Requests per second of our server against nginx serving the static snapshot, and
// against sirv alone serving the same snapshot's pages (the page table stays only while it
// serves at least 1.5x what sirv does), all loaded by `wrk -t1 -c32`. The measurements
// alternate (ours, nginx, sirv, ours…) over several rounds and the median of each is kept,
// so a noisy neighbour on a shared machine weighs on every side alike.
import path from 'node:path';
import { percentile } from './_vault.ts';
import { startSirv, type SirvServer } from './_sirv-server.ts';
import { startNginx, wrk, type Nginx } from './_tools.ts';

export interface ThroughputOptions {
  ours: string;
  /** The snapshot folder for nginx, or null when nginx is not available. */
  snapshot: string | null;
  /** The snapshot folder for sirv (the same pages, precompressed). */
  sirvSnapshot: string;
  work: string;
  routes: [string, string][];
  seconds: number;
  rounds: number;
  freePort: () => Promise<number>;
}

const rps = (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`.padStart(14);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const median = (values: number[]) => percentile(values, 50);

export async function compareThroughput(o: ThroughputOptions): Promise<void> {
  const nginx: { plain: Nginx; gzip: Nginx } | null = o.snapshot
    ? {
        plain: await startNginx(o.snapshot, path.join(o.work, 'nginx'), await o.freePort(), false),
        gzip: await startNginx(o.snapshot, path.join(o.work, 'nginx-gzip'), await o.freePort(), true),
      }
    : null;
  const sirv: SirvServer = await startSirv(o.sirvSnapshot, o.routes.map(([, route]) => route), await o.freePort());
  const versusSirv: string[] = [];
  try {
    console.log(`\nrequests per second, wrk -t1 -c32, median of ${o.rounds} alternating rounds of ${o.seconds} s (target: ≥ 0.5x nginx)`);
    for (const [name, route] of o.routes) {
      const runs = { plain: [] as number[], gzip: [] as number[], br: [] as number[], nginxPlain: [] as number[], nginxGzip: [] as number[], sirvPlain: [] as number[], sirvGzip: [] as number[], sirvBr: [] as number[] };
      // Warm-up: both servers have the page in memory (ours prepared, nginx in the page cache).
      await wrk(o.ours + route, 1);
      if (nginx) await wrk(nginx.plain.url + route, 1);
      await wrk(sirv.url + route, 1);
      for (let r = 0; r < o.rounds; r++) {
        runs.plain.push(await wrk(o.ours + route, o.seconds));
        if (nginx) runs.nginxPlain.push(await wrk(nginx.plain.url + route, o.seconds));
        runs.gzip.push(await wrk(o.ours + route, o.seconds, ['Accept-Encoding: gzip']));
        if (nginx) runs.nginxGzip.push(await wrk(nginx.gzip.url + route, o.seconds, ['Accept-Encoding: gzip']));
        runs.br.push(await wrk(o.ours + route, o.seconds, ['Accept-Encoding: br, gzip']));
        runs.sirvPlain.push(await wrk(sirv.url + route, o.seconds));
        runs.sirvGzip.push(await wrk(sirv.url + route, o.seconds, ['Accept-Encoding: gzip']));
        runs.sirvBr.push(await wrk(sirv.url + route, o.seconds, ['Accept-Encoding: br, gzip']));
      }
      const [plain, gzip, br] = [median(runs.plain), median(runs.gzip), median(runs.br)];
      const skipped = '   (skipped)'.padStart(14);
      const np = nginx ? median(runs.nginxPlain) : 0;
      const ng = nginx ? median(runs.nginxGzip) : 0;
      console.log(`  ${name.padEnd(8)} ours plain ${rps(plain)}   nginx sendfile ${nginx ? rps(np) : skipped}   ${nginx ? ratio(plain, np) : ''}`);
      console.log(`  ${''.padEnd(8)} ours gzip  ${rps(gzip)}   nginx gzip     ${nginx ? rps(ng) : skipped}   ${nginx ? ratio(gzip, ng) : ''}`);
      console.log(`  ${''.padEnd(8)} ours br    ${rps(br)}`);
      const [sp, sg, sb] = [median(runs.sirvPlain), median(runs.sirvGzip), median(runs.sirvBr)];
      versusSirv.push(`  ${name.padEnd(8)} plain ${rps(plain)} vs ${rps(sp)}  ${ratio(plain, sp)}   gzip ${rps(gzip)} vs ${rps(sg)}  ${ratio(gzip, sg)}   br ${rps(br)} vs ${rps(sb)}  ${ratio(br, sb)}`);
    }
    console.log(`\nthe page table against sirv alone serving the same page precompressed (ours vs sirv; the table stays at ≥ 1.5x)`);
    for (const line of versusSirv) console.log(line);
  } finally {
    await sirv.stop();
    await nginx?.plain.stop();
    await nginx?.gzip.stop();
  }
}
