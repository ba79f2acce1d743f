// A compiled browser bundle is made again when any file it was made of changed, not only
// site/client/: the search bundle is mostly shared/ code, and a change there once left
// compiled code serving the old tokenizer beside an index the new one made.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleClient, bundleStale, inputsFile } from '../../site/render/client-bundle.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

describe('a compiled client bundle', () => {
  it('knows the files it was made of, shared/ ones included', async () => {
    const { inputs } = await bundleClient('search');
    expect(inputs).toEqual(expect.arrayContaining(['shared/search/index-format.ts', 'shared/text-fold.ts', 'site/client/search/main.ts']));
    expect(inputs.every((f) => !path.isAbsolute(f))).toBe(true);
  });

  it('is stale when one of them is newer, when its inputs are unknown, or when it is missing', async () => {
    const dir = await tempDir('vs-bundle-stale-');
    const bundle = path.join(dir, 'dist/search.js');
    await fs.mkdir(path.dirname(bundle), { recursive: true });
    await fs.mkdir(path.join(dir, 'shared'), { recursive: true });
    expect(await bundleStale(bundle, dir)).toBe(true);
    await fs.writeFile(bundle, '/* bundle */');
    expect(await bundleStale(bundle, dir)).toBe(true);
    await fs.writeFile(path.join(dir, 'shared/a.ts'), 'export {}');
    await fs.writeFile(inputsFile(bundle), JSON.stringify(['shared/a.ts', 'shared/gone.ts']));
    await fs.utimes(path.join(dir, 'shared/a.ts'), at(1), at(1));
    await fs.utimes(bundle, at(2), at(2));
    // A removed input is no reason by itself: the file that imported it changed too.
    expect(await bundleStale(bundle, dir)).toBe(false);
    await fs.utimes(path.join(dir, 'shared/a.ts'), at(3), at(3));
    expect(await bundleStale(bundle, dir)).toBe(true);
  });
});
