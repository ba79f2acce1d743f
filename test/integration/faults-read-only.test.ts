// The "cannot write" faults on every machine (the full-disk ones need a tmpfs):
// a folder the server may not write. Each way of making one that works here is tried:
// its mode (chmod) when the tests do not run as root; as root, where chmod binds no one,
// a read-only bind mount when mount is allowed, the server dropped to `nobody` (a
// preload given in NODE_OPTIONS, vault and data owned by it) so that the mode binds it
// when `nobody` can read the checkout, and the immutable attribute (chattr +i) where the
// file system takes it: a CI box without mount rights and with its checkout under /root
// still runs these tests one way.
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountWorks } from '../helpers/mounts.ts';
import { PROJECT_DIR, startServer, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, filesUnder, tempDir, writeFiles } from '../helpers/tmp.ts';

const AS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

type Method = 'chmod' | 'bind mount' | 'chmod, server as nobody' | 'chattr +i';

/** Whether a process as `nobody` can read the project (a checkout under /root cannot be). */
function nobodyCanRun(): boolean {
  if (!AS_ROOT) return false;
  const check = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(path.join(PROJECT_DIR, 'package.json'))})`], { uid: NOBODY, gid: NOBODY });
  return check.status === 0;
}

/** Whether this file system takes the immutable attribute from root (ext4 does; a CI box without mount rights still can). */
function chattrWorks(): boolean {
  if (!AS_ROOT) return false;
  const probe = execFileSync('mktemp', ['-d'], { encoding: 'utf8' }).trim();
  try {
    execFileSync('chattr', ['+i', probe], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    execFileSync('rm', ['-rf', probe]);
  }
}

const METHODS: Method[] = AS_ROOT
  ? [...(mountWorks() ? (['bind mount'] as const) : []), ...(nobodyCanRun() ? (['chmod, server as nobody'] as const) : []), ...(chattrWorks() ? (['chattr +i'] as const) : [])]
  : ['chmod'];

/** The server on a temp vault and data directory; as `nobody` for that method. */
async function startFor(method: Method, files: Record<string, string>): Promise<TestServer> {
  const base = await tempDir('vs-read-only-');
  const vault = path.join(base, 'vault');
  const data = path.join(base, 'data');
  await writeFiles(vault, files);
  await fs.mkdir(data);
  const env: Record<string, string> = { NOTE_VERSIONS: 'on' };
  if (method === 'chmod, server as nobody') {
    // The builder child inherits NODE_OPTIONS as `nobody` already: only root drops.
    const preload = path.join(base, 'drop-root.mjs');
    await fs.writeFile(preload, `if (process.getuid() === 0) { process.setgroups([]); process.setgid(${NOBODY}); process.setuid(${NOBODY}); }\n`);
    execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, base]);
    env.NODE_OPTIONS = `--import ${pathToFileURL(preload).href}`;
  }
  return startServer({ vault, data, env });
}

/**
 * chmod: every folder under `dir` (itself included) r-x and every file r--, or u+w back. The
 * folders first: the server may still be writing (a version's index goes after the save's
 * answer), and once they are r-x no file appears or goes; one renamed away before then is skipped.
 */
async function setWritable(dir: string, writable: boolean): Promise<void> {
  const folders = [dir];
  for (let i = 0; i < folders.length; i++) {
    for (const e of await fs.readdir(folders[i]!, { withFileTypes: true })) if (e.isDirectory()) folders.push(path.join(folders[i]!, e.name));
  }
  for (const folder of folders) await fs.chmod(folder, writable ? 0o755 : 0o555);
  for (const file of await filesUnder(dir)) {
    await fs.chmod(file, writable ? 0o644 : 0o444).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
}

/** Makes `dir` read-only to the server the way `method` does; answers how to undo it. */
async function makeReadOnly(method: Method, dir: string): Promise<() => Promise<void>> {
  if (method === 'chattr +i') {
    // Immutable: even root cannot create, replace or rename anything in it (EPERM).
    execFileSync('chattr', ['-R', '+i', dir]);
    return async () => {
      execFileSync('chattr', ['-R', '-i', dir]);
    };
  }
  if (method === 'bind mount') {
    execFileSync('mount', ['--bind', dir, dir]);
    execFileSync('mount', ['-o', 'remount,bind,ro', dir]);
    return async () => {
      // A read of the folder under way (the server's or its build process's) has the mount
      // busy for a moment: tried again, as an admin would.
      for (let tries = 0; ; tries++) {
        try {
          execFileSync('umount', [dir], { stdio: 'pipe' });
          return;
        } catch (err) {
          if (tries >= 50 || !String((err as { stderr?: Buffer }).stderr ?? '').includes('busy')) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
  }
  await setWritable(dir, false);
  return () => setWritable(dir, true);
}

const tempFilesIn = async (dir: string) => (await filesUnder(dir)).filter((f) => path.basename(f).startsWith('.~vs-'));
const q = encodeURIComponent;

afterAll(cleanupTempDirs);

it('this machine can make a folder read-only to the server one way or another', () => {
  expect(METHODS.length).toBeGreaterThan(0);
});

describe.each(METHODS)('made read-only by %s', (method) => {
  let server: TestServer;
  const undo: Array<() => Promise<void>> = [];
  const readOnly = async (dir: string) => {
    const back = await makeReadOnly(method, dir);
    let done = false;
    const once = async () => {
      if (!done) await back();
      done = true;
    };
    undo.push(once);
    return once;
  };

  beforeAll(async () => {
    server = await startFor(method, { 'Locked/Note.md': 'the previous text\n', 'Open/Free.md': 'free\n' });
    // The positive signal: this server can write where nothing stops it.
    expect((await server.admin('PUT', `/api/note?path=${q('Open/Free.md')}`, { content: 'saved\n' })).status).toBe(200);
    expect(await fs.readFile(path.join(server.vault, 'Open/Free.md'), 'utf8')).toBe('saved\n');
  }, 60_000);
  afterAll(async () => {
    for (const back of undo.reverse()) await back().catch(() => {});
    await server?.stop();
  });

  describe('a note folder the server cannot write', () => {
    let unlock: () => Promise<void>;
    beforeAll(async () => {
      unlock = await readOnly(path.join(server.vault, 'Locked'));
    });

    it('a save answers 503 not_writable (409 read_only when chmod left the note itself without write permission); the note keeps its previous text; no temp file is left', async () => {
      const res = await server.admin('PUT', `/api/note?path=${q('Locked/Note.md')}`, { content: 'the new text\n' });
      if (method.startsWith('chmod')) {
        // The file's own mode says no one may write it: the owner's protection, named as such.
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'read_only' });
      } else {
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'not_writable' });
        expect(res.body.error).toMatch(/cannot be written \((EACCES|EROFS|EPERM)\).*unchanged/);
      }
      expect(await fs.readFile(path.join(server.vault, 'Locked/Note.md'), 'utf8')).toBe('the previous text\n');
      expect(await tempFilesIn(server.vault)).toEqual([]);
    });

    it('a new note there: 503 as well, nothing made', async () => {
      const res = await server.admin('PUT', `/api/note?path=${q('Locked/New.md')}`, { content: 'new\n' });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'not_writable' });
      await expect(fs.stat(path.join(server.vault, 'Locked/New.md'))).rejects.toThrow();
      expect(await tempFilesIn(server.vault)).toEqual([]);
    });

    // Node's recursive mkdir reports a read-only disk as ENOENT: the cause is found and named.
    it('a new note in a new folder there, and a rename into one: 503 not_writable, not 500', async () => {
      const made = await server.admin('PUT', `/api/note?path=${q('Locked/Deeper/Still/New.md')}`, { content: 'new\n' });
      expect({ status: made.status, code: made.body.code }).toEqual({ status: 503, code: 'not_writable' });
      const moved = await server.admin('POST', '/api/note/rename', { path: 'Locked/Note.md', to: 'Locked/Sub/Note.md' });
      expect({ status: moved.status, code: moved.body.code }).toEqual({ status: 503, code: 'not_writable' });
      await expect(fs.stat(path.join(server.vault, 'Locked/Deeper'))).rejects.toThrow();
      expect(await fs.readFile(path.join(server.vault, 'Locked/Note.md'), 'utf8')).toBe('the previous text\n');
    });

    // Within the folder: across a mount point a rename is EXDEV, another fault.
    it('a rename inside it answers 503 not_writable, not 500; the note stays where it was', async () => {
      const res = await server.admin('POST', '/api/note/rename', { path: 'Locked/Note.md', to: 'Locked/Renamed.md' });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'not_writable' });
      expect(res.body.error).not.toContain(server.vault);
      await expect(fs.stat(path.join(server.vault, 'Locked/Renamed.md'))).rejects.toThrow();
      expect(await fs.readFile(path.join(server.vault, 'Locked/Note.md'), 'utf8')).toBe('the previous text\n');
    });

    it('the server keeps answering, and the save lands once the folder is writable again', async () => {
      expect((await server.admin('GET', '/api/me')).body).toEqual({ admin: true });
      await unlock();
      const res = await server.admin('PUT', `/api/note?path=${q('Locked/Note.md')}`, { content: 'the new text\n' });
      expect(res.status).toBe(200);
      expect(await fs.readFile(path.join(server.vault, 'Locked/Note.md'), 'utf8')).toBe('the new text\n');
    });
  });

  describe('a rename whose versions cannot follow (issue 9: a rename completes or changes nothing)', () => {
    it('answers 200 with the note at its new path, and says in the log what stayed behind', async () => {
      const put = (content: string) => server.admin('PUT', `/api/note?path=${q('Moves/A.md')}`, { content });
      expect((await put('first\n')).status).toBe(200);
      expect((await put('second\n')).status).toBe(200);
      expect((await server.admin('GET', `/api/versions?path=${q('Moves/A.md')}`)).body.versions).toHaveLength(1);
      await readOnly(path.join(server.data, 'versions'));
      const res = await server.admin('POST', '/api/note/rename', { path: 'Moves/A.md', to: 'Moves/B.md' });
      expect(res.status).toBe(200);
      expect(res.body.path).toBe('Moves/B.md');
      expect(await fs.readFile(path.join(server.vault, 'Moves/B.md'), 'utf8')).toBe('second\n');
      await expect(fs.stat(path.join(server.vault, 'Moves/A.md'))).rejects.toThrow();
      expect(server.output()).toMatch(/Moves\/B\.md has moved, but the versions of Moves\/A\.md could not move with it/);
      // The tree shows the note where it went.
      const paths = (await server.admin('GET', '/api/tree')).body.entries.map((e: any) => e.path);
      expect(paths).toContain('Moves/B.md');
      expect(paths).not.toContain('Moves/A.md');
    });
  });
});
