// Standards: a crash at any instant leaves the old or the new content, never a
// torn file. The server is SIGKILLed 20 times at random moments during saves.
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const NOTES = ['One.md', 'Two.md', 'Deep/Three.md', 'Four.md'];
const WHOLE = /^BEGIN (\S+) (\d+)\n(x+)\nEND \1 \2\n$/;

function text(note: string, seq: number): string {
  const size = 2_000 + ((seq * 7919) % 120_000);
  return `BEGIN ${note} ${seq}\n${'x'.repeat(size)}\nEND ${note} ${seq}\n`;
}

async function jsonFilesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.json')) out.push(path.join(entry.parentPath ?? (entry as any).path, entry.name));
  }
  return out;
}

describe('crash safety', () => {
  it('after 20 SIGKILLs mid-save every note holds a whole text and every index.json parses', async () => {
    const base = await tempDir();
    const vault = path.join(base, 'vault');
    const data = path.join(base, 'data');
    await fs.mkdir(path.join(vault, 'Deep'), { recursive: true });
    let seq = 0;
    for (const note of NOTES) await fs.writeFile(path.join(vault, note), text(note, seq++));

    for (let round = 0; round < 20; round++) {
      const server = await startServer({ vault, data });
      const cookie = await server.login();
      let stop = false;
      const writers = NOTES.map(async (note) => {
        while (!stop) {
          try {
            await fetch(`${server.url}/api/note?path=${encodeURIComponent(note)}`, {
              method: 'PUT',
              headers: { cookie, 'content-type': 'application/json' },
              body: JSON.stringify({ content: text(note, seq++) }),
            });
          } catch {
            return; // the server is gone
          }
        }
      });
      await new Promise((r) => setTimeout(r, 30 + Math.random() * 250));
      await server.kill();
      stop = true;
      await Promise.all(writers);

      for (const note of NOTES) {
        const content = await fs.readFile(path.join(vault, note), 'utf8');
        const m = content.match(WHOLE);
        expect(m, `${note} after round ${round} is torn`).not.toBeNull();
        expect(m![3]!.length).toBe(text(note, Number(m![2])).split('\n')[1]!.length);
      }
      for (const file of await jsonFilesUnder(data)) {
        expect(() => JSON.parse(readFileSync(file, 'utf8')), `${file} after round ${round}`).not.toThrow();
      }
    }
    // Every version an index lists is there, whole.
    for (const file of await jsonFilesUnder(path.join(data, 'versions'))) {
      const index = JSON.parse(readFileSync(file, 'utf8'));
      for (const v of index.versions) {
        const kept = await fs.readFile(path.join(path.dirname(file), `${v.at}.md`), 'utf8');
        expect(kept).toMatch(WHOLE);
        expect(Buffer.byteLength(kept)).toBe(v.size);
      }
    }
  }, 120_000);
});
