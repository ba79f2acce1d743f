// spec D.7: a feed's pubDate is RFC-822 in GMT, whatever the server's time zone. Each zone
// runs in a process of its own started with TZ (setting TZ inside a test's process does not
// reach Intl there).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_DIR } from '../../shared/project-dir.ts';

const FILTERS = path.join(PROJECT_DIR, 'site/build/filters.ts');

/** rfc822 of each UTC time, computed in a process whose time zone is `tz`. */
function rfc822In(tz: string, times: number[]): string[] {
  const script = `const { rfc822 } = await import(${JSON.stringify(FILTERS)}); console.log(JSON.stringify(${JSON.stringify(times)}.map(rfc822)));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, TZ: tz }, encoding: 'utf8' });
  return JSON.parse(out) as string[];
}

describe('rfc822 (feed pubDate)', () => {
  for (const tz of ['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/New_York']) {
    it(`is the GMT time in the RFC 1123 form, midnight as 00, with the server in ${tz}`, () => {
      expect(rfc822In(tz, [Date.UTC(2024, 0, 15, 12, 0, 0), Date.UTC(2003, 3, 7, 0, 23, 39)])).toEqual([
        'Mon, 15 Jan 2024 12:00:00 GMT',
        'Mon, 07 Apr 2003 00:23:39 GMT',
      ]);
    });
  }
});
