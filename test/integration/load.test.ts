// Load: 200 concurrent visitor requests while 50 saves (of the very notes being
// read, so pages are rebuilt and swapped meanwhile) and one sync pass run. No 5xx;
// every page served is complete; every save lands or is refused with 409.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { bareRepo, git, sshStandIn } from '../helpers/git-remotes.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const NOTES = 30;
const VISITS = 200;
const SAVES = 50;

let server: TestServer;
let remote: string;

const note = (i: number, text: string) =>
  `---\npublish: true\ntitle: Note ${i}\ndate: 2024-02-${String((i % 28) + 1).padStart(2, '0')}\ntags: [load, t${i % 5}]\n---\n${text}\n\n${'Some prose to read. '.repeat(40)}\n`;

beforeAll(async () => {
  const base = await tempDir('vs-load-');
  remote = await bareRepo(path.join(base, 'remote.git'));
  const ssh = await sshStandIn(path.join(base, 'ssh'));
  const vault = path.join(base, 'vault');
  const data = path.join(base, 'data');
  const files: Record<string, string> = { 'Home.md': '---\npublish: true\n---\nWelcome.\n' };
  for (let i = 0; i < NOTES; i++) files[`Posts/Note ${i}.md`] = note(i, `first text ${i}`);
  await writeFiles(vault, files);
  git(vault, 'init', '-q', '--initial-branch=main');
  await fs.mkdir(data);
  await writeJsonAtomic(path.join(data, 'settings.json'), { sync: { enabled: true, remoteUrl: `git@localhost:${remote}`, branch: 'main', intervalMinutes: 0 } });
  server = await startServer({ vault, data, env: { SERVICE_GIT_SSH_COMMAND: ssh.command } });
  await waitFor(async () => (await fetch(`${server.url}/Posts/Note-${NOTES - 1}`)).status === 200, 30_000, 200);
  await waitFor(async () => (await server.admin('GET', '/api/sync/status')).body.state !== 'running', 20_000);
  await server.login();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await cleanupTempDirs();
});

describe('load', () => {
  it(`${VISITS} visitor requests, ${SAVES} saves and a sync pass at once`, async () => {
    const addresses = ['/', '/topic/load', '/topic/t1', '/feed.xml', ...Array.from({ length: NOTES }, (_, i) => `/Posts/Note-${i}`)];
    const mtimes = new Map<number, number>();
    for (let i = 0; i < 10; i++) {
      const res = await server.admin('GET', `/api/note?path=${encodeURIComponent(`Posts/Note ${i}.md`)}`);
      mtimes.set(i, res.body.mtimeMs);
    }
    await writeFiles(server.vault, { 'Posts/Unsynced.md': 'a change for the pass to commit\n' });

    const started = Date.now();
    const visits = Array.from({ length: VISITS }, async (_, k) => {
      const address = addresses[k % addresses.length]!;
      const res = await fetch(server.url + address, { headers: k % 2 ? { 'accept-encoding': 'gzip, br' } : {} });
      return { address, status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
    });
    // Saves: ten notes get five saves each, all based on the same loaded time, so at most
    // one per note can land and the others must be refused; half are unchecked edits of others.
    const saves = Array.from({ length: SAVES }, async (_, k) => {
      const i = k % 10;
      const checked = k < 25;
      const target = checked ? i : 10 + (k % 20);
      const body = checked ? { content: note(target, `edit ${k}`), baseMtimeMs: mtimes.get(i) } : { content: note(target, `edit ${k}`) };
      const res = await server.admin('PUT', `/api/note?path=${encodeURIComponent(`Posts/Note ${target}.md`)}`, body);
      return { k, checked, status: res.status };
    });
    const sync = server.admin('POST', '/api/sync/now');
    const [pages, saved, synced] = await Promise.all([Promise.all(visits), Promise.all(saves), sync]);
    const took = Date.now() - started;

    const serverErrors = pages.filter((p) => p.status >= 500).map((p) => `${p.address} ${p.status}`);
    expect(serverErrors).toEqual([]);
    const html = pages.filter((p) => p.type.startsWith('text/html'));
    expect(html.length).toBeGreaterThan(VISITS / 2);
    const incomplete = html.filter((p) => !p.body.trimEnd().endsWith('</html>')).map((p) => p.address);
    expect(incomplete).toEqual([]);
    for (const p of pages) expect({ address: p.address, status: p.status }).toEqual({ address: p.address, status: 200 });
    const feed = pages.filter((p) => p.address === '/feed.xml');
    for (const f of feed) expect(f.body.trimEnd().endsWith('</rss>')).toBe(true);

    expect(saved.filter((s) => s.status !== 200 && s.status !== 409)).toEqual([]);
    // Unchecked saves always land; of the checked ones, at most one per note does.
    expect(saved.filter((s) => !s.checked).every((s) => s.status === 200)).toBe(true);
    const landedChecked = saved.filter((s) => s.checked && s.status === 200).map((s) => s.k % 10);
    expect(new Set(landedChecked).size).toBe(landedChecked.length);
    expect(landedChecked.length).toBeGreaterThan(0);

    expect(['pushed', 'committed']).toContain(synced.body.outcome);
    expect(git(remote, 'show', 'main:Posts/Unsynced.md')).toBe('a change for the pass to commit\n');
    expect(took).toBeLessThan(45_000);
  }, 60_000);
});
