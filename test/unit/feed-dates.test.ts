// spec D.7: a feed's pubDate is RFC-822 in GMT, whatever the server's time zone. The feed
// template formats it with feedDate (site/render/filters.ts): the RSS plugin's dateToRfc822's text, in UTC. Each zone runs in a
// process of its own started with TZ (setting TZ inside a test's process does not reach
// Intl there).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_DIR } from '../../shared/project-dir.ts';

const FEED = path.join(PROJECT_DIR, 'site/templates/_includes/pages/feed.njk');
// Compiled (dist/ is made before the tests, test/compile-before.ts): through tsx each process took twice the CPU.
const FILTERS = path.join(PROJECT_DIR, 'dist/site/render/filters.js');

/** feedDate of each UTC time (twice), and the plugin's own, in a process whose time zone is `tz`. */
function rfc822In(tz: string, times: number[]): string[] {
  const script = `const { feedDate } = await import(${JSON.stringify(FILTERS)}); const { dateToRfc822 } = await import('@11ty/eleventy-plugin-rss'); const t = ${JSON.stringify(times)}; console.log(JSON.stringify([...t.map(feedDate), ...t.map(feedDate), ...t.map((x) => dateToRfc822(x, 'UTC'))]));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_DIR, env: { ...process.env, TZ: tz }, encoding: 'utf8' });
  return JSON.parse(out) as string[];
}

describe('feed dates (pubDate, lastBuildDate)', () => {
  it("are written by feedDate, the RSS plugin's text in UTC", () => {
    const feed = readFileSync(FEED, 'utf8');
    const dates = [...feed.matchAll(/<(pubDate|lastBuildDate)>\{\{ ([^}]+) \}\}</g)].map((m) => [m[1], m[2]!.split('|')[1]!.trim()]);
    expect(dates).toEqual([
      ['lastBuildDate', 'feedDate'],
      ['pubDate', 'feedDate'],
    ]);
  });

  it("is the plugin's text for any time, on every day of the week and month, leap days, before 1970 and past 9999", () => {
    const times = [Date.UTC(2024, 1, 29, 23, 59, 59), Date.UTC(1969, 11, 31, 23, 59, 59, 999), 0, Date.UTC(1000, 0, 1), Date.UTC(999, 11, 31, 12), Date.UTC(9999, 11, 31, 23, 59, 59), Date.UTC(10000, 0, 1), Date.UTC(1900, 1, 28, 1, 2, 3)];
    // Two random times a day, for 40 years either side of 2000.
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 4000; i++) times.push(Math.round(Date.UTC(1960, 0, 1) + random() * 80 * 365.25 * 86_400_000));
    const out = rfc822In('Asia/Kolkata', times);
    const [ours, plugin] = [out.slice(0, times.length), out.slice(2 * times.length)];
    expect(ours).toEqual(plugin);
  });

  it('formats thousands of items without growing the process (an ICU formatter a call grew it by 30 KB each)', () => {
    const script = `const { feedDate } = await import(${JSON.stringify(FILTERS)}); feedDate(0); const before = process.memoryUsage().rss; for (let i = 0; i < 5000; i++) feedDate(1.6e12 + i * 3_600_000); console.log(Math.round((process.memoryUsage().rss - before) / 1e6));`;
    const grewMB = Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_DIR, encoding: 'utf8' }).trim());
    // The plugin's dateToRfc822 a call: about 150 MB for these 5,000.
    expect(grewMB).toBeLessThan(40);
  });

  for (const tz of ['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/New_York']) {
    it(`is the GMT time in the RFC 822 form, midnight as 00, with the server in ${tz}`, () => {
      const two = ['Mon, 15 Jan 2024 12:00:00 +0000', 'Mon, 07 Apr 2003 00:23:39 +0000'];
      expect(rfc822In(tz, [Date.UTC(2024, 0, 15, 12, 0, 0), Date.UTC(2003, 3, 7, 0, 23, 39)])).toEqual([...two, ...two, ...two]);
    });
  }
});
