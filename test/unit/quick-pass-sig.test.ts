// An edit of a note's text renders its article without making the article's signature first:
// the signature holds the text's hash, so the page differs whatever else it reads, and a
// note of 3,000 links spent about 30 ms of its save there (site/build/quick-pass.ts changedOf).
// The signature is owed, and made once the answer is sent (DueSigs).
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { buildRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import { defaultSettings } from '../../shared/settings.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { quickPlan } from '../../site/build/quick-pass.ts';
import { AttachmentIndex } from '../../site/read/attachments.ts';
import { planVault } from '../../site/plan/plan-vault.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const note = (path: string, body: string) => buildRecord({ path: path as VaultPath, text: `---\npublish: true\n---\n${body}\n`, createdMs: Date.UTC(2026, 0, 1), fileMs: 0 });

async function editOf(before: NoteRecord, after: NoteRecord) {
  const vault = await tempDir('vs-quick-sig-');
  const config = loadConfig({ VAULT: vault, SERVICE_DATA: await tempDir('vs-quick-sig-data-'), PUBLIC_LAYOUT: 'default' }, []);
  const records = [before, note('A.md', 'Links [[Index]].'), note('B.md', 'The second.')];
  const plan = planVault({ records, attachments: new AttachmentIndex(vault), settings: defaultSettings(), config, base: '', assets: [], now: new Date(Date.UTC(2026, 5, 1)) });
  for (const page of plan.pages.values()) void page.sig;
  // Which records' article signatures are asked for from here on.
  const asked: string[] = [];
  const cache = plan.ctx.memory.articleSigs;
  const get = cache.get.bind(cache);
  cache.get = (key, deps, make) => (asked.push(key.path), get(key, deps, make));
  const quick = quickPlan(plan, [{ path: before.path, before, after }], [], { before: [], plan: () => [] })!;
  return { quick, asked, page: quick.changed.find((p) => p.address === after.address)! };
}

describe("an edited note's article is rendered before its signature is made", () => {
  it('a text edit: the article is among the changed pages, its signature not made yet; made when read (after the answer)', async () => {
    const { quick, asked, page } = await editOf(note('Index.md', 'An index of [[A]] and [[B]].'), note('Index.md', 'An index of [[A]] and [[B]], edited.'));
    expect(quick.changed.map((p) => p.address)).toContain('/Index');
    expect(asked).not.toContain('Index.md');
    expect(page.sig).not.toBe('');
    expect(asked).toContain('Index.md');
  });

  it('the same text saved again: the signature decides, as for any other page', async () => {
    const text = 'An index of [[A]] and [[B]].';
    const { quick, asked } = await editOf(note('Index.md', text), note('Index.md', text));
    expect(asked).toContain('Index.md');
    expect(quick.changed.map((p) => p.address)).not.toContain('/Index');
  });
});
