// `vault-service build` prints its warnings on the operator's terminal: what a note wrote in a
// link (a line break percent-encoded, an escape sequence, a bidi override) stays inside its
// one line, written as escapes.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

describe('a build’s warnings on a terminal', () => {
  it('are one line each, control characters escaped', async () => {
    const root = await tempDir('vs-warn-term-');
    const vault = path.join(root, 'vault');
    await writeFiles(vault, {
      'A.md': '---\npublish: true\n---\n[x](Evil%0A2026-12-06T00:00:00.000Z%20error%20forged.md), [[Reset\u001bcnow]] and [[Bidi\u202Eevil]].\n',
    });
    const { res } = buildSnapshot(root, vault);
    expect(res.status, res.stderr).toBe(0);
    const lines = res.stderr.split('\n');
    const warnings = lines.slice(lines.findIndex((l) => /^\d+ warnings?:$/.test(l)) + 1).filter((l) => l !== '');
    expect(warnings).toEqual([
      '  A.md: links to "Bidi\\u202eevil", which does not exist',
      '  A.md: links to "Evil\\n2026-12-06T00:00:00.000Z error forged.md", which does not exist',
      '  A.md: links to "Reset\\u001bcnow", which does not exist',
    ]);
    expect(res.stderr).not.toMatch(/[\u001b\u202e]/);
  });
});
