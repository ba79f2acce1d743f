// `vault-service build` through a pipe read slower than the build writes (a CI log): Node
// holds what a pipe takes no more of, and a process that exits at once loses it. The command
// line exits once its output is out (scripts/cli/run.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, CLI_BIN as CLI, PROJECT_DIR } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

describe('a build\'s output through a slow pipe', () => {
  it('every warning line reaches a reader that takes its time (the process exits once its output is out)', async () => {
    const root = await tempDir('vs-cli-');
    // 3,000 warnings, about 230 kB: far more than a pipe holds (150 notes of 20, a note's most lines).
    const notes: Record<string, string> = {};
    for (let n = 0; n < 150; n++) {
      const links = Array.from({ length: 20 }, (_, i) => `[[Missing note number ${n * 20 + i}]]`).join(' ');
      notes[`Many links ${String(n).padStart(3, '0')}.md`] = `---\npublish: true\n---\n${links}\n`;
    }
    await writeFiles(path.join(root, 'vault'), notes);
    const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
    const build = [process.execPath, CLI, 'build', '--quiet', '--vault', path.join(root, 'vault'), '--data', path.join(root, 'data'), '--out', path.join(root, 'site'), '--site-url', 'https://s.example'];
    // The build's stderr goes to a pipe nobody reads for a second: its first 64 kB fill the pipe
    // and the rest waits in Node; `cat` reads it all after. The build's own status comes last.
    const script = `${build.map(quote).join(' ')} 2>&1 >/dev/null | (sleep 1; cat); echo "status \${PIPESTATUS[0]}"`;
    const res = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const proc = spawn('bash', ['-c', script], { cwd: PROJECT_DIR, env: childEnv({}) });
      let out = '';
      proc.stdout.on('data', (d) => (out += d));
      proc.stderr.on('data', (d) => (out += d));
      proc.on('close', (code) => resolve({ code, out }));
    });
    const lines = res.out.trimEnd().split('\n');
    expect(lines.at(-1), res.out.slice(-300)).toBe('status 0');
    expect(lines[0]).toBe('3000 warnings:');
    expect(lines).toHaveLength(3002);
    expect(lines.at(-2)).toMatch(/^ {2}Many links 149\.md: links to "Missing note number \d+", which does not exist$/);
  });
});
