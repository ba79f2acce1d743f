// One command, `vault-service`, with start, build, set-password, hash-password,
// --help and --version; every setting as a flag or its environment variable (the flag wins);
// a bad command line exits 2 with one line and the usage, a failed build exits 1; a build
// shows progress when it is long, then a summary with each warning naming its note, and
// --strict fails on a warning.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, CLI_BIN as CLI, PROJECT_DIR, waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';
import { cli, type CliRun } from '../helpers/cli.ts';
import { SITE_MARKER } from '../../scripts/site-out-guard.ts';
import { SNAPSHOT_V8_FLAGS } from '../../site/build/build-heap.ts';
import { nodeCompileCache } from '../../scripts/cli/relaunch.ts';
import { generateVault } from '../../scripts/bench/_vault.ts';

const WARNINGS_VAULT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/warnings/vault');
const VERSION = JSON.parse(await fs.readFile(path.join(PROJECT_DIR, 'package.json'), 'utf8')).version as string;

afterAll(cleanupTempDirs);

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

describe('--help and --version', () => {
  it('--help lists every command and every setting with its variable, and exits 0', async () => {
    const res = await cli(['--help']);
    expect(res.code).toBe(0);
    for (const command of ['start', 'build', 'set-password', 'hash-password']) expect(res.stdout).toContain(`vault-service ${command}`);
    for (const line of ['--vault DIR, VAULT', '--data DIR, SERVICE_DATA', '--out DIR, SITE_OUT', '--site-url URL, SITE_URL', '--host ADDRESS, HOST', '--port NUMBER, PORT', '--strict', '--quiet']) {
      expect(res.stdout).toContain(line);
    }
    expect(res.stderr).toBe('');
  });

  it('a command’s --help shows only what that command takes', async () => {
    const res = await cli(['build', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('--out DIR, SITE_OUT');
    expect(res.stdout).not.toContain('--port');
  });

  it('docs/guide/command-line.md carries the --help text as it is', async () => {
    const page = await fs.readFile(path.join(PROJECT_DIR, 'docs', 'guide', 'command-line.md'), 'utf8');
    const help = (await cli(['--help'])).stdout;
    expect(page).toContain(help.replace(/^/gm, '    ').replace(/^ +$/gm, ''));
  });

  it('--version prints the package version', async () => {
    const res = await cli(['--version']);
    expect(res).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });
});

describe('a bad command line: one line naming it, the usage, exit 2', () => {
  it.each([
    [[], 'a command is needed'],
    [['publish'], 'unknown command "publish"'],
    [['build', '--colour'], 'unknown option --colour for "build"'],
    [['build', '--port', '3000'], '--port is not an option of "build"'],
    [['build', '--vault'], '--vault needs a value'],
    [['build', '--strict=yes'], '--strict takes no value'],
    [['start', '--port', 'eighty'], '--port: must be a whole number from 0 to 65535 (got "eighty")'],
    [['build', '--site-url', 'ftp://example.org'], '--site-url: must be an http(s) URL'],
    [['build', 'extra'], 'unexpected argument extra for "build"'],
    [['hash-password', 'one', 'two'], 'unexpected argument two for "hash-password"'],
    [['set-password', '--colour'], 'unknown option --colour for "set-password"'],
  ])('%j', async (args, message) => {
    const res = await cli(args as string[]);
    expect(res.code).toBe(2);
    const [first, ...rest] = res.stderr.split('\n');
    expect(first).toContain(message);
    expect(first!.startsWith('vault-service: ')).toBe(true);
    expect(rest[0]).toBe('Usage:');
    expect(res.stdout).toBe('');
  });

  it('a bad environment variable is a failed start, not a usage error: exit 1, one line', async () => {
    const res = await cli(['start'], { PORT: 'eighty', VAULT: await tempDir(), SERVICE_DATA: await tempDir() });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toEqual(['vault-service: configuration error: PORT: must be a whole number from 0 to 65535 (got "eighty")']);
  });
});

describe('a command that breaks: exit 1, one line with its cause', () => {
  it('a build that cannot write its output fails with the cause (exit 1), not a usage error', async () => {
    const root = await tempDir('vs-cli-');
    await writeFiles(root, { 'vault/A.md': '---\npublish: true\n---\nA\n', 'a-file': 'not a folder' });
    const out = path.join(root, 'a-file', 'site');
    const res = await cli(['build', '--vault', path.join(root, 'vault'), '--data', path.join(root, 'data'), '--out', out, '--site-url', 'https://c.example']);
    expect(res.code).toBe(1);
    expect(res.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^vault-service: build failed: ENOTDIR: not a directory/)]);
    expect(res.stderr).toContain(out);
    expect(res.stdout).toBe('');
  });

  it('start on a port already taken exits 1 with one line naming the address', async () => {
    const root = await tempDir('vs-cli-');
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const res = await cli(['start', '--port', String(port), '--vault', path.join(root, 'vault'), '--data', path.join(root, 'data')], { HOST: '127.0.0.1', ADMIN_PASSWORD: 'a long test password' });
      expect(res.code).toBe(1);
      const failures = res.stderr.split('\n').filter((l) => l.startsWith('vault-service: '));
      expect(failures).toEqual([`vault-service: start failed: 127.0.0.1:${port} is already in use: stop what listens there, or choose another port (--port or PORT)`]);
      // No stack under it, and nothing claims to listen.
      expect(res.stderr).not.toMatch(/^\s+at /m);
      expect(res.stdout).not.toContain('listening on');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('flags win over environment variables', () => {
  it('build: --vault, --out and --site-url over VAULT, SITE_OUT and SITE_URL', async () => {
    const root = await tempDir('vs-cli-');
    const envVault = path.join(root, 'env-vault');
    const flagVault = path.join(root, 'flag-vault');
    await writeFiles(envVault, { 'From env.md': '---\npublish: true\n---\nFROM-ENV\n' });
    await writeFiles(flagVault, { 'From flag.md': '---\npublish: true\n---\nFROM-FLAG\n' });
    const env = { VAULT: envVault, SERVICE_DATA: path.join(root, 'data'), SITE_OUT: path.join(root, 'env-out'), SITE_URL: 'https://env.example' };
    const res = await cli(['build', '--vault', flagVault, `--out=${path.join(root, 'flag-out')}`, '--site-url', 'https://flag.example'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(await exists(path.join(root, 'env-out'))).toBe(false);
    const page = await fs.readFile(path.join(root, 'flag-out', 'From-flag.html'), 'utf8');
    expect(page).toContain('FROM-FLAG');
    expect(page).toContain('https://flag.example/From-flag');
    expect(page).not.toContain('env.example');
  });

  it('start: --port and --vault over PORT and VAULT', async () => {
    const root = await tempDir('vs-cli-');
    const flagVault = path.join(root, 'flag-vault');
    await writeFiles(flagVault, { 'Hello.md': '---\npublish: true\n---\nSTARTED-FROM-FLAG\n' });
    const proc = spawn(process.execPath, [CLI, 'start', '--port', '0', '--vault', flagVault], {
      cwd: PROJECT_DIR,
      env: childEnv({ PORT: '1', VAULT: path.join(root, 'env-vault'), SERVICE_DATA: path.join(root, 'data'), ADMIN_PASSWORD: 'a long test password' }),
    });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    try {
      const url = await waitFor(() => /listening on (http:\/\/\S+)/.exec(out)?.[1], 30_000);
      expect(url).not.toMatch(/:1$/);
      expect(out).toContain(`(vault ${flagVault})`);
      const page = await waitFor(async () => {
        const res = await fetch(`${url}/Hello`);
        return res.status === 200 ? res.text() : null;
      }, 30_000);
      expect(page).toContain('STARTED-FROM-FLAG');
      expect(await exists(path.join(root, 'env-vault'))).toBe(false);
    } finally {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('set-password: --data over SERVICE_DATA', async () => {
    const root = await tempDir('vs-cli-');
    const res = await cli(['set-password', '--data', path.join(root, 'flag-data')], { SERVICE_DATA: path.join(root, 'env-data') }, 'a long enough password\n');
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(await fs.readFile(path.join(root, 'flag-data', 'admin.json'), 'utf8')).hash).toMatch(/^scrypt\$/);
    expect(await exists(path.join(root, 'env-data'))).toBe(false);
  });
});

describe('set-password and hash-password', () => {
  it('hash-password prints a hash and exits 0; a short password exits 1', async () => {
    const ok = await cli(['hash-password', 'a long enough password']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^scrypt\$\S+\n$/);
    const short = await cli(['hash-password', 'short']);
    expect(short.code).toBe(1);
    expect(short.stderr).toBe('hash-password: Use at least 8 characters.\n');
  });

  it('set-password refuses a short password with exit 1 and writes nothing', async () => {
    const data = path.join(await tempDir('vs-cli-'), 'data');
    const res = await cli(['set-password', 'short', '--data', data]);
    expect(res.code).toBe(1);
    expect(await exists(path.join(data, 'admin.json'))).toBe(false);
  });
});

describe('build: summary, warnings, --strict', () => {
  async function buildWarnings(extra: string[] = [], out?: string) {
    const root = await tempDir('vs-cli-');
    const target = out ?? path.join(root, 'site');
    const res = await cli(['build', '--vault', WARNINGS_VAULT, '--data', path.join(root, 'data'), '--out', target, '--site-url', 'https://w.example', ...extra]);
    return { ...res, out: target };
  }

  it('exits 0 and sums up: pages written, time, then each warning naming its note', async () => {
    const res = await buildWarnings();
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^built \d+ pages \(\d+ files\) into .+ in \d+\.\d s\n$/);
    const pages = Number(/built (\d+) pages/.exec(res.stdout)![1]);
    const html = ((await fs.readdir(res.out, { recursive: true })) as string[]).filter((f) => f.endsWith('.html'));
    // A page that is a folder too is also that folder's index.html: one page, two files.
    const folderCopies = html.filter((f) => path.basename(f) === 'index.html' && html.includes(`${path.dirname(f)}.html`));
    expect(pages).toBe(html.length - folderCopies.length);
    const warnings = res.stderr.slice(res.stderr.indexOf(' warnings:\n') + ' warnings:\n'.length).trimEnd().split('\n');
    expect(res.stderr).toMatch(/^\d+ warnings:$/m);
    expect(warnings).toEqual(
      expect.arrayContaining([
        '  Posts/Broken link.md: links to "Nowhere at all", which does not exist',
        '  Posts/Private link.md: links to "Private thoughts" (Private thoughts.md), which is not published',
        '  Posts/Embeds private.md: embeds ![[Private thoughts]], which is not published: nothing is shown',
        expect.stringMatching(/^ {2}Posts\/Bad frontmatter\.md: the frontmatter block is malformed and was ignored \(.+\)$/),
        expect.stringMatching(/^ {2}Posts\/Same[ -]name\.md: is not published: Posts\/Same[ -]name\.md also claims the address \/Posts\/Same-name, and the older note keeps it$/),
        '  api/Reserved.md: is not published: its address /api/Reserved belongs to the site',
        // A note that took the address of an attachment a note shows (a reviewer's find: it was silent).
        '  Posts/pic.png.md: its address /Posts/pic.png is also the attachment Posts/pic.png, which notes show: the note is served there and the attachment is not published',
      ]),
    );
    // Private notes' own links are nobody's business.
    expect(res.stderr).not.toMatch(/Nowhere either|Missing too/);
  });

  it('--strict: any warning fails the build (exit 1) and the previous site stays as it was', async () => {
    const root = await tempDir('vs-cli-');
    const out = path.join(root, 'site');
    await writeFiles(out, { [SITE_MARKER]: 'x', 'index.html': 'THE-PREVIOUS-SITE' });
    const res = await buildWarnings(['--strict'], out);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('  Posts/Broken link.md: links to "Nowhere at all", which does not exist');
    expect(res.stderr.trimEnd().split('\n').at(-1)).toMatch(/^vault-service: \d+ warnings with --strict: the build failed, .+ was left as it was\.$/);
    expect(await fs.readFile(path.join(out, 'index.html'), 'utf8')).toBe('THE-PREVIOUS-SITE');
    expect(await fs.readdir(root)).toEqual(['site']);
  });

  it('--strict with nothing to warn about builds (exit 0)', async () => {
    const root = await tempDir('vs-cli-');
    await writeFiles(path.join(root, 'vault'), { 'Clean.md': '---\npublish: true\n---\nNothing wrong.\n' });
    const res = await cli(['build', '--strict', '--vault', path.join(root, 'vault'), '--data', path.join(root, 'data'), '--out', path.join(root, 'site'), '--site-url', 'https://c.example']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('warning');
  });

  it('a refused SITE_OUT is a failed build: exit 1, one line', async () => {
    const root = await tempDir('vs-cli-');
    await writeFiles(path.join(root, 'vault'), { 'A.md': '---\npublish: true\n---\nA\n' });
    const res = await cli(['build', '--vault', path.join(root, 'vault'), '--data', path.join(root, 'data'), '--out', path.join(root, 'vault', 'site'), '--site-url', 'https://c.example']);
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('lies inside the vault');
  });

  it('a site served under a path gets that path in front of its own links', async () => {
    const res = await buildWarnings(['--site-url', 'https://owner.github.io/notes']);
    expect(res.code, res.stderr).toBe(0);
    const home = await fs.readFile(path.join(res.out, 'index.html'), 'utf8');
    expect(home).toContain('href="/notes/Posts/Fine"');
    expect(home).toMatch(/href="\/notes\/_s\/blog\.\w+\.css"/);
    expect(home).toMatch(/data-script="\/notes\/_s\/search\.\w+\.js"/);
    expect(home).not.toMatch(/(?:href|src|action|poster|data-script)="\/(?!notes\/|\/)/);
  });

});

// Each builds 5,000 notes: on two busy cores that is 15–30 s, past vitest's default timeout.
describe('progress of a long build', { timeout: 120_000 }, () => {
  // Big enough that its build outlasts the silent first second on a fast, idle machine; the
  // timing itself is the unit test's (build-progress), so no bigger than that.
  const NOTES = 2500;
  let bigVault: string;
  async function big(): Promise<string> {
    if (bigVault) return bigVault;
    bigVault = path.join(await tempDir('vs-cli-big-'), 'vault');
    const files: Record<string, string> = {};
    for (let i = 0; i < NOTES; i++) files[`Notes/Note ${i}.md`] = `---\npublish: true\ndate: 2026-01-01\ntags: [t${i % 40}]\n---\nNote ${i} links to [[Note ${(i + 1) % NOTES}]].\n`;
    await writeFiles(bigVault, files);
    return bigVault;
  }

  it('when the output is not a terminal: plain lines, after the first second, then the summary', async () => {
    const root = await tempDir('vs-cli-');
    const res = await cli(['build', '--vault', await big(), '--data', path.join(root, 'data'), '--out', path.join(root, 'site'), '--site-url', 'https://p.example']);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stderr.split('\n').filter((l) => l.startsWith('build: '));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^build: [a-z ]+(?: \d+\/\d+)? \((\d+\.\d) s\)$/);
    // Nothing before the first second; no terminal control characters in a log.
    expect(Number(/\((\d+\.\d) s\)/.exec(lines[0]!)![1])).toBeGreaterThanOrEqual(1);
    expect(res.stderr).not.toMatch(/\r|\x1b/);
    expect(res.stdout).toMatch(/^built \d{4} pages/);
  });

  it('on a terminal (a pseudo-terminal from `script`): one line that rewrites itself, cleared before the summary', async () => {
    const root = await tempDir('vs-cli-');
    const command = [process.execPath, CLI, 'build', '--vault', await big(), '--data', path.join(root, 'data'), '--out', path.join(root, 'site'), '--site-url', 'https://p.example'];
    const res = await new Promise<CliRun>((resolve) => {
      const proc = spawn('script', ['-qec', command.map((a) => `'${a}'`).join(' '), '/dev/null'], { cwd: PROJECT_DIR, env: childEnv({}) });
      let stdout = '';
      proc.stdout.on('data', (d) => (stdout += d));
      proc.stdin.end();
      proc.on('close', (code) => resolve({ code, stdout, stderr: '' }));
    });
    expect(res.code).toBe(0);
    const updates = res.stdout.split('\r\x1b[2K');
    expect(updates.length).toBeGreaterThan(2);
    for (const update of updates.slice(1, -1)) expect(update).toMatch(/^build: [a-z ]+(?: \d+\/\d+)? \(\d+\.\d s\)$/);
    // The line is cleared, then the summary starts on it.
    expect(updates.at(-1)).toMatch(/^built \d+ pages/);
  });

  it('--quiet: no progress and no summary', async () => {
    const root = await tempDir('vs-cli-');
    const res = await cli(['build', '--quiet', '--vault', await big(), '--data', path.join(root, 'data'), '--out', path.join(root, 'site'), '--site-url', 'https://p.example']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('');
    expect(await exists(path.join(root, 'site', 'index.html'))).toBe(true);
  });
});

/** Processes whose parent is `pid` and whose command line is a build. */
async function childrenOf(pid: number): Promise<number[]> {
  const out: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
    const args = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (args.split('\0').includes('build')) out.push(Number(entry));
  }
  return out;
}

describe('the build process', () => {
  // site/build/build-heap.ts SNAPSHOT_V8_FLAGS: what only Node's command line can give a
  // process; `vault-service build` started without them starts itself again with them.
  it.runIf(nodeCompileCache() === null)('runs with the build\'s V8 flags when started without them on a Node without its own compile cache, and answers with its exit code', async () => {
    const root = await tempDir('vs-cli-');
    await writeFiles(path.join(root, 'vault'), { 'A note.md': '---\npublish: true\n---\nFLAGGED\n' });
    const proc = spawn(process.execPath, [CLI, 'build', '--quiet'], {
      cwd: PROJECT_DIR,
      env: childEnv({ VAULT: path.join(root, 'vault'), SERVICE_DATA: path.join(root, 'data'), SITE_OUT: path.join(root, 'out') }),
    });
    const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
    const flagged = await waitFor(async () => {
      const [child] = await childrenOf(proc.pid!);
      return child ? (await fs.readFile(`/proc/${child}/cmdline`, 'utf8')).split('\0') : null;
    });
    expect(flagged).toEqual(expect.arrayContaining([...SNAPSHOT_V8_FLAGS, CLI, 'build', '--quiet']));
    expect(await exited).toBe(0);
    expect(await fs.readFile(path.join(root, 'out', 'A-note.html'), 'utf8')).toContain('FLAGGED');
  });

  it('`npm run build`\'s bundle started without the flags starts itself again with them, the second time too (its code then comes from the code cache)', async () => {
    const root = await tempDir('vs-cli-');
    await writeFiles(path.join(root, 'vault'), { 'A note.md': '---\npublish: true\n---\nCACHED\n' });
    const env = childEnv({ VAULT: path.join(root, 'vault'), SERVICE_DATA: path.join(root, 'data'), SITE_OUT: path.join(root, 'out') });
    for (const round of [1, 2]) {
      const proc = spawn(process.execPath, ['scripts/run-compiled.cjs', 'build', '--quiet'], { cwd: PROJECT_DIR, env });
      let stderr = '';
      proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
      expect(code, `round ${round}: ${stderr}`).toBe(0);
      expect(await fs.readFile(path.join(root, 'out', 'A-note.html'), 'utf8')).toContain('CACHED');
    }
  });

  it('a SIGTERM to the command (a CI job stopped) stops the build process too, and the command answers 143', async () => {
    const root = await tempDir('vs-cli-');
    await generateVault(path.join(root, 'vault'), 1500);
    const proc = spawn(process.execPath, [CLI, 'build', '--quiet'], {
      cwd: PROJECT_DIR,
      env: childEnv({ VAULT: path.join(root, 'vault'), SERVICE_DATA: path.join(root, 'data'), SITE_OUT: path.join(root, 'out') }),
    });
    const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
    const child = await waitFor(() => childrenOf(proc.pid!).then((pids) => pids[0] ?? null));
    process.kill(proc.pid!, 'SIGTERM');
    expect(await exited).toBe(143);
    await waitFor(async () => !(await fs.stat(`/proc/${child}`).then(() => true, () => false)));
    expect(await exists(path.join(root, 'out'))).toBe(false);
  });
});
