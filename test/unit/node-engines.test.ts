// `npm install` prints no engine warning on any Node that package.json's `engines` claims: the
// lowest release of each range it names satisfies the `engines.node` of every package the lock
// file installs. An optional package npm skips on a Node it does not fit, silently, so it is left out.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PROJECT = path.resolve(import.meta.dirname, '../..');
const json = (rel: string) => JSON.parse(readFileSync(path.join(PROJECT, rel), 'utf8'));

// Eleventy's own dependency: npm's range rules, not a copy of them.
const semver = createRequire(path.join(PROJECT, 'node_modules/@11ty/eleventy/package.json'))('semver') as {
  Range: new (range: string) => { set: unknown[][] };
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

interface LockEntry {
  version?: string;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

const claimed: string = json('package.json').engines.node;
const packages = json('package-lock.json').packages as Record<string, LockEntry>;

/** The lowest Node release of each alternative (`||`) of the claimed range. */
function lowestOfEachAlternative(range: string): string[] {
  return range.split('||').map((part) => semver.minVersion(part.trim())!.version);
}

/** Those, and the first release of each later major line the range takes in (a package may skip a line). */
function nodesClaimed(range: string): string[] {
  const floors = lowestOfEachAlternative(range);
  const majors = Array.from({ length: 8 }, (_, i) => `${Number(floors[0]!.split('.')[0]) + i}.0.0`).filter((v) => semver.satisfies(v, range));
  return [...new Set([...floors, ...majors])];
}

describe("package.json's engines", () => {
  it('names a range with a floor for each alternative', () => {
    expect(claimed).toBeTruthy();
    expect(lowestOfEachAlternative(claimed).length).toBeGreaterThan(0);
  });

  it.each(nodesClaimed(claimed))('Node %s fits every package the lock file installs', (node) => {
    const misfits: string[] = [];
    for (const [where, entry] of Object.entries(packages)) {
      if (where === '' || entry.optional) continue;
      const wants = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (wants && !semver.satisfies(node, wants)) misfits.push(`${where.replace(/^.*node_modules\//, '')}@${entry.version}: node ${wants}`);
    }
    expect(misfits).toEqual([]);
  });

  it('the README names the same floor', () => {
    const readme = readFileSync(path.join(PROJECT, 'README.md'), 'utf8');
    const [first] = lowestOfEachAlternative(claimed);
    expect(readme).toContain(`Node ${first!.replace(/\.0$/, '')} or later`);
  });
});
