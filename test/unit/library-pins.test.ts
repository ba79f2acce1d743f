// Modules that reach into a library's internals are written against one release of it:
// package.json names that release exactly, and any other installed release fails here
// before a build or a visitor's search runs the patched code against internals it
// was not written for.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PROJECT = path.resolve(import.meta.dirname, '../..');

/** Each package whose internals we patch or read, with the module that does it. */
const PINNED = [
  { name: 'minisearch', module: 'site/client/search/minisearch-internals.ts' },
  { name: '@polka/url', module: 'site/serve/site-files.ts' },
];

/** The installed package's own package.json, found as Node finds the package from the module that uses it. */
function installed(name: string, from: string): { name: string; version: string } {
  const paths = createRequire(path.join(PROJECT, from)).resolve.paths(name) ?? [];
  const dir = paths.map((d) => path.join(d, name)).find((d) => existsSync(path.join(d, 'package.json')));
  if (!dir) throw new Error(`${name} is not installed`);
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
}

const declared = (JSON.parse(readFileSync(path.join(PROJECT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;

describe('libraries whose internals we patch are pinned to one release', () => {
  it.each(PINNED)('$name: package.json names one exact version, and it is the one installed', ({ name, module }) => {
    const spec = declared[name]!;
    // `npm:@11ty/nunjucks@3.3.0` (an alias), `7.2.0` or `1.0.0-next.29`.
    const m = /^(?:npm:(@?[^@]+)@)?(\d+\.\d+\.\d+(?:-[\w.]+)?)$/.exec(spec);
    expect(m, `${name}: "${spec}" is a range, not one version`).not.toBeNull();
    const pkg = installed(name, module);
    expect(pkg.version, `${module} was written against ${name} ${m![2]}; ${pkg.version} is installed`).toBe(m![2]);
    if (m![1]) expect(pkg.name).toBe(m![1]);
  });

  it.each(PINNED)('$name: the module that patches it says what upstream change would retire it', ({ module }) => {
    expect(readFileSync(path.join(PROJECT, module), 'utf8')).toMatch(/^\/\/ Retired when .+/m);
  });
});
