// CONTRACT §7: a note the admin moved answers 301 at its old address. The move is told
// to whichever pass comes next, a full build (at start, after a builder crash) or the
// pass after a restart included: before, a move made while one of those waited was
// dropped, and a note whose rename rewrote its own links got no redirect at all.
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { fixtureScript } from '../helpers/fixture-process.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

/** The redirects a second full build serves after the move (test/fixtures/build/moves-in-full.ts). */
async function redirectsAfterMove(tell: boolean | 'client'): Promise<[string, string][]> {
  const vault = await tempDir('vs-moves-');
  await writeFiles(vault, {
    'Notes/Self.md': '---\ntitle: A note\npublish: true\ndate: 2026-01-02\n---\nIt links to itself: [[Self]].\n',
    'Notes/Other.md': '---\ntitle: Another\npublish: true\ndate: 2026-01-01\n---\nNothing moves here.\n',
  });
  const out = execFileSync(process.execPath, [fixtureScript(tell === 'client' ? 'client-moves' : 'moves-in-full'), vault, await tempDir('vs-moves-out-'), tell ? 'yes' : 'no'], { cwd: PROJECT_DIR, env: childEnv({}), encoding: 'utf8', timeout: 120_000 });
  return (JSON.parse(out.trim().split('\n').pop()!) as [string, string][] | null) ?? [];
}

describe('a move told to a full build', () => {
  it('gives the old address a 301 even though the note text changed with its links', async () => {
    expect(await redirectsAfterMove(true)).toContainEqual(['/Notes/Self', '/Notes/Moved']);
  }, 120_000);

  it('from the server: a move made as a full build is asked for goes with that build', async () => {
    expect(await redirectsAfterMove('client')).toContainEqual(['/Notes/Self', '/Notes/Moved']);
  }, 120_000);

  it('is what makes it: untold, the changed text leaves nothing to match', async () => {
    expect(await redirectsAfterMove(false)).not.toContainEqual(['/Notes/Self', '/Notes/Moved']);
  }, 120_000);
});
