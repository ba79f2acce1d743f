// Lighthouse 12 from npm, installed by the bench into a temp folder (not a project
// dependency), run on Debian's chromium with its default mobile settings.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const HOME = path.join(os.tmpdir(), 'vs-bench-lighthouse-12');
const CLI = path.join(HOME, 'node_modules/lighthouse/cli/index.js');
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

export function ensureLighthouse(): boolean {
  if (existsSync(CLI)) return true;
  console.log(`installing lighthouse@12 into ${HOME} for the bench…`);
  const res = spawnSync('npm', ['install', '--prefix', HOME, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', 'lighthouse@12'], { stdio: 'inherit' });
  return res.status === 0 && existsSync(CLI);
}

export interface LighthouseScores {
  scores: Record<(typeof CATEGORIES)[number], number>;
  /** Audits below a full score, for the report. */
  failing: string[];
}

export function lighthouse(url: string, chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'): Promise<LighthouseScores> {
  const args = [
    CLI,
    url,
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    `--only-categories=${CATEGORIES.join(',')}`,
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run',
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env: { ...process.env, CHROME_PATH: chromium }, maxBuffer: 256 * 1024 * 1024, timeout: 180_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`lighthouse failed on ${url}: ${stderr.slice(-1500)}`));
      const report = JSON.parse(stdout) as {
        categories: Record<string, { score: number; auditRefs: { id: string; weight: number }[] }>;
        audits: Record<string, { score: number | null; title: string }>;
      };
      const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((report.categories[c]?.score ?? 0) * 100)])) as LighthouseScores['scores'];
      const failing = new Set<string>();
      for (const c of CATEGORIES) {
        for (const ref of report.categories[c]?.auditRefs ?? []) {
          const audit = report.audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) failing.add(`${ref.id} (${audit.title})`);
        }
      }
      resolve({ scores, failing: [...failing] });
    });
  });
}
