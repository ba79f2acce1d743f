// An edit that keeps a note's shape re-plans the families reading it (site/plan/plan.ts
// replanReaders); an article that reaches the note only through links shows its anchors and
// the sentence around its link there, no more: it is planned again only when those changed.
// An index note linking thousands of notes is edited without planning those thousands.
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { buildRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import { defaultSettings } from '../../shared/settings.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { quickPlan } from '../../site/build/quick-pass.ts';
import { AttachmentIndex } from '../../site/read/attachments.ts';
import { planVault } from '../../site/plan/plan-vault.ts';
import type { SitePlan } from '../../site/plan/plan.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const note = (path: string, body: string) => buildRecord({ path: path as VaultPath, text: `---\npublish: true\n---\n${body}\n`, createdMs: Date.UTC(2026, 0, 1), fileMs: 0 });

const INDEX = 'Index.md';
const indexBody = (lead: string, aSentence: string) =>
  `${lead}\n\n${aSentence} [[A]].\n\nThen [[B]] is the next one. And [[C]] too.\n\nEmbedded here:\n\n![[Embedded]]\n`;

async function planOf(records: NoteRecord[]): Promise<SitePlan> {
  const vault = await tempDir('vs-face-');
  const config = loadConfig({ VAULT: vault, SERVICE_DATA: await tempDir('vs-face-data-'), PUBLIC_LAYOUT: 'default' }, []);
  const plan = planVault({ records, attachments: new AttachmentIndex(vault), settings: defaultSettings(), config, base: '', assets: [], now: new Date(Date.UTC(2026, 5, 1)) });
  for (const page of plan.pages.values()) void page.sig;
  return plan;
}

/** The article families an edit of the index note plans again. */
async function replannedBy(body: string): Promise<string[]> {
  const before = note(INDEX, indexBody('An index.', 'Start with'));
  const records = [
    before,
    note('A.md', '# A\n\nThe first.'),
    note('B.md', '# B\n\nThe second, which links back to [[Index]].'),
    note('C.md', '## Part one\n\nThe third.'),
    note('Embedded.md', 'Shown inside [[Index]].'),
    note('Embedder.md', 'The index shown in full:\n\n![[Index]]'),
  ];
  const plan = await planOf(records);
  const after = note(INDEX, body);
  const quick = quickPlan(plan, [{ path: INDEX as VaultPath, before, after }], [], { before: [], plan: () => [] });
  expect(quick).not.toBeNull();
  // The note's own article is planned in the pass; other notes' articles wait for a quiet moment (quick-pass.ts).
  expect(quick!.families.map((f) => f.key).filter((k) => k.startsWith('article:'))).toEqual(['article:Index.md']);
  return [...quick!.families.map((f) => f.key).filter((k) => k.startsWith('article:')), ...quick!.waiting].sort();
}

describe('an edit of a note linking others plans again only the articles whose view of it changed', () => {
  it('a sentence away from every link: the note itself and the note embedding it, not the notes it links or that link it', async () => {
    expect(await replannedBy(indexBody('An index of everything.', 'Start with'))).toEqual(['article:Embedder.md', 'article:Index.md']);
  });

  it('the sentence around one link: that linked note too (its "Linked from" shows the sentence)', async () => {
    expect(await replannedBy(indexBody('An index.', 'Begin with'))).toEqual(['article:A.md', 'article:Embedder.md', 'article:Index.md']);
  });

  it('a new heading: every note linking it (an anchor reads its headings) and those it links that show it in their backlinks', async () => {
    const keys = await replannedBy(`## Everything\n\n${indexBody('An index.', 'Start with')}`);
    expect(keys).toEqual(['article:A.md', 'article:B.md', 'article:C.md', 'article:Embedded.md', 'article:Embedder.md', 'article:Index.md']);
  });
});
