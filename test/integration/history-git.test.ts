// spec 2.6, 4.1 (Snapshot now), 4.2 and Appendix B; CONTRACT §4: note history from git.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../helpers/git-remotes.ts';
import { serverForFile } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

const OLD = 'Notes/Old name.md';
const NEW = 'Notes/New [draft] name.md';
const ARABIC = 'ملاحظات/عن النشر.md';
const INJECTED = 'Notes/Injected.md';
const INJECTED_NEW = 'Notes/Injected moved.md';
const TINY = 'Inbox/Tiny.md';
const TINY_MOVED = 'Archive/Deep/Tiny.md';
const FAKE_SHA = '0123456789abcdef0123456789abcdef01234567';
const shas: Record<string, string> = {};

const q = (p: string) => encodeURIComponent(p);

const server = serverForFile(async () => {
  const vault = path.join(await tempDir('vs-history-'), 'vault');
  const commit = async (files: Record<string, string>, message: string, key: string) => {
    await writeFiles(vault, files);
    git(vault, 'add', '-A');
    git(vault, 'commit', '-q', '-m', message);
    shas[key] = git(vault, 'rev-parse', 'HEAD').trim();
  };
  await writeFiles(vault, { 'Other.md': 'x\n' });
  git(vault, 'init', '-q', '-b', 'main');
  await commit({ [OLD]: 'line1\nline2\n' }, 'create the note', 'c1');
  await commit({ 'Other.md': 'y\n' }, 'unrelated change', 'other');
  await commit({ [OLD]: 'line1\nline2 changed\nline3\n' }, 'edit the note', 'c2');
  git(vault, 'mv', OLD, NEW);
  git(vault, 'commit', '-q', '-m', 'rename the note');
  shas.c3 = git(vault, 'rev-parse', 'HEAD').trim();
  await commit({ [NEW]: 'line1\nline2 changed\nline3\nline4\n' }, 'edit after the rename', 'c4');
  await commit({ [ARABIC]: 'نص\n' }, 'arabic note', 'ar');
  // A subject carrying the log's record separator and a commit id of its author's choosing.
  await commit({ [INJECTED]: 'one\n' }, `sub with \x1e${FAKE_SHA}`, 'inj1');
  git(vault, 'mv', INJECTED, INJECTED_NEW);
  git(vault, 'commit', '-q', '-m', 'rename the injected note');
  shas.inj2 = git(vault, 'rev-parse', 'HEAD').trim();
  await commit({ [TINY]: 'Tiny.\n' }, 'a small note', 't1');
  await commit({ [TINY]: '[o](../Other.md)\n' }, 'it links Other', 't2');
  // Two notes of one name gone where one comes: no way to tell which it was.
  await commit({ 'A/Twin.md': 'a\n', 'B/Twin.md': 'b\n' }, 'twins', 'tw1');
  git(vault, 'rm', '-q', 'A/Twin.md', 'B/Twin.md');
  await commit({ 'C/Twin.md': 'c\n' }, 'twins gone, one of that name made', 'tw2');
  // A note deleted as another of a different name is made: a new note, not a move.
  await commit({ 'Gone.md': 'gone\n' }, 'a note', 'g1');
  git(vault, 'rm', '-q', 'Gone.md');
  await commit({ 'Fresh.md': 'fresh\n' }, 'one goes, a new one comes', 'g2');
  return { vault };
});

describe('GET /api/history (commits that touched a note, newest first, renames followed)', () => {
  it('lists every revision with full sha, date, message, lines added and removed, and where it lived', async () => {
    const res = await server.admin('GET', `/api/history?path=${q(NEW)}`);
    expect(res.status).toBe(200);
    expect(res.body.repo).toBe(true);
    expect(res.body.truncated).toBe(false);
    const rows = res.body.revisions;
    expect(rows.map((r: any) => r.sha)).toEqual([shas.c4, shas.c3, shas.c2, shas.c1]);
    expect(rows.map((r: any) => r.message)).toEqual(['edit after the rename', 'rename the note', 'edit the note', 'create the note']);
    expect(rows.map((r: any) => r.path)).toEqual([NEW, NEW, OLD, OLD]);
    expect(rows.map((r: any) => [r.added, r.removed])).toEqual([[1, 0], [0, 0], [2, 1], [2, 0]]);
    for (const r of rows) {
      expect(r.sha).toMatch(/^[0-9a-f]{40}$/);
      expect(Number.isNaN(Date.parse(r.date))).toBe(false);
    }
  });

  it('a subject carrying the record separator and a commit id adds no row and takes nothing from the real one', async () => {
    const rows = (await server.admin('GET', `/api/history?path=${q(INJECTED_NEW)}`)).body.revisions as any[];
    expect(rows.map((r) => r.sha)).toEqual([shas.inj2, shas.inj1]);
    expect(rows[1]).toMatchObject({ message: `sub with \x1e${FAKE_SHA}`, path: INJECTED, added: 1, removed: 0 });
    expect((await server.admin('GET', `/api/history/blob?sha=${shas.inj1}&path=${q(INJECTED)}`)).status).toBe(200);
    for (const r of rows) expect(Number.isNaN(Date.parse(r.date))).toBe(false);
  });

  it('limit cuts the list and says it was truncated; bad limits are 400', async () => {
    const res = await server.admin('GET', `/api/history?path=${q(NEW)}&limit=2`);
    expect(res.body.revisions).toHaveLength(2);
    expect(res.body.truncated).toBe(true);
    for (const bad of ['0', '501', 'x', '-1']) expect((await server.admin('GET', `/api/history?path=${q(NEW)}&limit=${bad}`)).status).toBe(400);
  });

  it('a note with non-ASCII names has its history too', async () => {
    const res = await server.admin('GET', `/api/history?path=${q(ARABIC)}`);
    expect(res.body.revisions.map((r: any) => [r.sha, r.path])).toEqual([[shas.ar, ARABIC]]);
  });

  it('a note git never saw has an empty history; unsafe paths are refused', async () => {
    expect((await server.admin('GET', '/api/history?path=Nope.md')).body).toEqual({ repo: true, revisions: [], truncated: false });
    expect((await server.admin('GET', `/api/history?path=${q('../etc/passwd')}`)).status).toBe(400);
    expect((await server.admin('GET', `/api/history?path=${q('.git/config')}`)).status).toBe(400);
    expect((await server.admin('GET', '/api/history')).status).toBe(400);
  });

  it('is admin-only', async () => {
    expect((await server.api('GET', `/api/history?path=${q(NEW)}`)).status).toBe(401);
    expect((await server.api('GET', `/api/history/blob?path=${q(NEW)}&sha=${shas.c4}`)).status).toBe(401);
  });
});

describe('History across a move (the move rewrote most of a small note: git saw a new file)', () => {
  it('a note moved by the app keeps its commits from before the move, each read where it lived', async () => {
    const moved = await server.admin('POST', '/api/note/rename', { path: TINY, to: TINY_MOVED });
    expect(moved.status).toBe(200);
    // Its relative link was rewritten for its new folder: nothing of the one line is the same.
    expect(await fs.readFile(path.join(server.vault, TINY_MOVED), 'utf8')).toBe('[o](../../Other.md)\n');
    const snap = await server.admin('POST', '/api/sync/snapshot');
    expect(snap.body.committed).toBe(true);
    expect(git(server.vault, 'log', '-1', '--follow', '-M', '--format=%H', '--', TINY_MOVED).trim()).toBe(snap.body.sha);
    const rows = (await server.admin('GET', `/api/history?path=${q(TINY_MOVED)}`)).body.revisions as any[];
    expect(rows.map((r) => [r.sha, r.path])).toEqual([[snap.body.sha, TINY_MOVED], [shas.t2, TINY], [shas.t1, TINY]]);
    expect((await server.admin('GET', `/api/history/blob?sha=${shas.t1}&path=${q(TINY)}`)).body.content).toBe('Tiny.\n');
    expect((await server.admin('GET', `/api/history?path=${q(TINY_MOVED)}&limit=2`)).body).toMatchObject({ truncated: true, revisions: [{ sha: snap.body.sha }, { sha: shas.t2 }] });
  });

  it("a new note never takes another's past: not from two gone of its name, nor from one of another name", async () => {
    expect((await server.admin('GET', `/api/history?path=${q('C/Twin.md')}`)).body.revisions.map((r: any) => r.sha)).toEqual([shas.tw2]);
    expect((await server.admin('GET', `/api/history?path=${q('Fresh.md')}`)).body.revisions.map((r: any) => r.sha)).toEqual([shas.g2]);
  });
});

describe('GET /api/history/blob (the note at one revision)', () => {
  it('reads the text under the path that revision lives at', async () => {
    const old = await server.admin('GET', `/api/history/blob?path=${q(OLD)}&sha=${shas.c2}`);
    expect(old.status).toBe(200);
    expect(old.body).toEqual({ sha: shas.c2, path: OLD, content: 'line1\nline2 changed\nline3\n' });
    const first = await server.admin('GET', `/api/history/blob?path=${q(OLD)}&sha=${shas.c1}`);
    expect(first.body.content).toBe('line1\nline2\n');
  });

  it('accepts only a full hex sha: HEAD, abc^, ranges and abbreviations are 400', async () => {
    for (const sha of ['HEAD', `${shas.c2!.slice(0, 7)}`, `${shas.c2}^`, `${shas.c1}..${shas.c2}`, `--output=/tmp/x`, shas.c2!.toUpperCase()]) {
      const res = await server.admin('GET', `/api/history/blob?path=${q(OLD)}&sha=${q(sha)}`);
      expect(res.status, sha).toBe(400);
      expect(res.body.code).toBe('bad_sha');
    }
  });

  it('404 when that revision has no such file, or the commit does not exist', async () => {
    expect((await server.admin('GET', `/api/history/blob?path=${q(NEW)}&sha=${shas.c1}`)).status).toBe(404);
    expect((await server.admin('GET', `/api/history/blob?path=${q(OLD)}&sha=${'0'.repeat(40)}`)).status).toBe(404);
  });
});

describe('Snapshot now (spec 4.1: one local commit, no network, no remote or token; history shows it as Snapshot)', () => {
  it('commits the whole vault with subject `service snapshot: <ISO>` and history labels it', async () => {
    await writeFiles(server.vault, { [NEW]: 'line1\nsnapshotted\n' });
    const res = await server.admin('POST', '/api/sync/snapshot');
    expect(res.status).toBe(200);
    expect(res.body.committed).toBe(true);
    expect(res.body.sha).toMatch(/^[0-9a-f]{40}$/);
    const subject = git(server.vault, 'log', '-1', '--format=%s').trim();
    expect(subject).toMatch(/^service snapshot: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const top = (await server.admin('GET', `/api/history?path=${q(NEW)}`)).body.revisions[0];
    expect(top).toMatchObject({ sha: res.body.sha, message: subject, label: 'Snapshot', path: NEW });
    expect(git(server.vault, 'remote').trim()).toBe('');
  });

  it('commits nothing on a clean tree', async () => {
    const head = git(server.vault, 'rev-parse', 'HEAD').trim();
    const res = await server.admin('POST', '/api/sync/snapshot');
    expect(res.status).toBe(200);
    expect(res.body.committed).toBe(false);
    expect(git(server.vault, 'rev-parse', 'HEAD').trim()).toBe(head);
  });

  it('Sync now is refused while backup is off (the feature is off until switched on)', async () => {
    const res = await server.admin('POST', '/api/sync/now');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('sync_off');
  });
});
