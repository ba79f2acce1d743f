// The notes' records kept for the next start (site/read/record-cache.ts) are read from the data
// directory, which is input too: a file of other code, Node or vault, or one cut short, is no
// cache; an entry of the wrong shape is left out, never a crash at every start; and where a note
// lives is made again from its path, whatever the file says.
import { promises as fs, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { NoteReader } from '../../shared/model/note-reader.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { RecordCache } from '../../site/read/record-cache.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const KEY = { vault: '/the/vault', code: 'code-1' };
const NOTES: Record<string, string> = {
  'A.md': '---\npublish: true\ndate: 2024-05-01\ntags: [x]\n---\n# A\n\nLinks [[B]] and embeds ![[B#Part]].\n',
  'B.md': '---\npublish: true\nupdated: 2024-06-01T10:00:00Z\n---\n## Part\n\nB speaks.\n',
  'Draft.md': '---\npublish: false\n---\nNot published.\n',
};

/** A vault read whole, its records kept by a cache written through the real path. */
async function kept() {
  const dir = await tempDir('vs-record-cache-');
  const vault = path.join(dir, 'vault');
  await writeFiles(vault, NOTES);
  await new Promise((resolve) => setTimeout(resolve, 150)); // settled files have stamps
  const reader = new NoteReader({ vaultDir: vault, dataDir: null, useGit: false });
  const records = reader.readMany(Object.keys(NOTES) as VaultPath[]);
  const cache = new RecordCache(path.join(dir, 'out'));
  await fs.mkdir(path.join(dir, 'out'), { recursive: true });
  cache.due = true;
  await cache.writeDue(KEY, records);
  return { vault, cache, records, file: path.join(dir, 'out', 'records.v8') };
}

/** The file's frames (4-byte length, serialized value), and the file made of some again. */
const frames = (file: string): unknown[] => {
  const buf = readFileSync(file);
  const out: unknown[] = [];
  for (let at = 0; at < buf.length; ) {
    const n = buf.readUInt32BE(at);
    out.push(deserialize(buf.subarray(at + 4, at + 4 + n)));
    at += 4 + n;
  }
  return out;
};
const framed = (values: unknown[]) => Buffer.concat(values.map((v) => {
  const body = serialize(v);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  return Buffer.concat([length, body]);
}));

const comparable = (r: NoteRecord) => ({ ...r, prepared: null, searchText: null, tags: r.tags, links: r.links, headings: r.headings, excerpt: r.excerpt });

describe('the records kept for the next start', () => {
  it('give the records a read makes, without parsing a note, while each file keeps its stamp', async () => {
    const { vault, cache, records } = await kept();
    const remembered = cache.load(KEY);
    expect([...remembered.keys()].sort()).toEqual(Object.keys(NOTES).sort());
    const reader = new NoteReader({ vaultDir: vault, dataDir: null, useGit: false });
    const restored = reader.readMany(Object.keys(NOTES) as VaultPath[], remembered);
    expect(reader.parses).toBe(0);
    expect(restored.map(comparable)).toEqual(records.map(comparable));
    await fs.writeFile(path.join(vault, 'B.md'), NOTES['B.md']!.replace('speaks', 'talks'));
    const again = new NoteReader({ vaultDir: vault, dataDir: null, useGit: false });
    expect(again.readMany(Object.keys(NOTES) as VaultPath[], cache.load(KEY)).find((r) => r.path === 'B.md')!.body).toContain('talks');
    expect(again.parses).toBe(1);
  });

  it('are none for other code, another vault or another Node, or when the file is cut short', async () => {
    const { cache, file } = await kept();
    expect(cache.load({ ...KEY, code: 'code-2' }).size).toBe(0);
    expect(cache.load({ ...KEY, vault: '/another' }).size).toBe(0);
    const [header, ...batches] = frames(file) as [Record<string, unknown>, ...unknown[]];
    writeFileSync(file, framed([{ ...header, node: 'v0.0.1' }, ...batches]));
    expect(cache.load(KEY).size).toBe(0);
    const whole = framed([header, ...batches]);
    writeFileSync(file, whole.subarray(0, whole.length - 7));
    expect(cache.load(KEY).size).toBe(0);
    writeFileSync(file, whole);
    expect(cache.load(KEY).size).toBe(3);
  });

  it('leave out an entry of the wrong shape, and make where a note lives again from its path', async () => {
    const { cache, file } = await kept();
    const [header, batch] = frames(file) as [unknown, [string, Record<string, unknown>, unknown][]];
    const byPath = new Map(batch.map((e) => [e[0], e]));
    byPath.get('A.md')![1].title = 42; // a field of the wrong type
    const pollutedData = JSON.parse('{"publish": true, "__proto__": {"polluted": 1}}');
    byPath.get('B.md')![1].data = pollutedData; // an own __proto__ in the frontmatter
    const outside: [string, Record<string, unknown>, unknown] = ['../outside.md', byPath.get('Draft.md')![1], null];
    // Where a note lives is not taken from the file: a kept `address` leading elsewhere is no field at all.
    byPath.get('Draft.md')![1].address = '/../../etc';
    writeFileSync(file, framed([header, [...byPath.values(), outside]]));
    const remembered = cache.load(KEY);
    expect([...remembered.keys()]).toEqual(['Draft.md']);
    expect(Object.keys(remembered.get('Draft.md')!.fields)).not.toContain('address');
  });
});
