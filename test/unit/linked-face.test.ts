// An edit that keeps a note's shape re-plans the families reading it (site/plan/plan.ts
// replanReaders); an article that reaches the note only through links shows its anchors and
// the sentence around its link there, no more: it is planned again only when those changed.
// An index note linking thousands of notes is edited without planning those thousands, and
// the comparison itself waits for a quiet moment (quick-pass.ts DueWork), as their pages do.
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { buildRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import { defaultSettings } from '../../shared/settings.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { DueWork, quickPlan } from '../../site/build/quick-pass.ts';
import { AttachmentIndex } from '../../site/read/attachments.ts';
import { planVault } from '../../site/plan/plan-vault.ts';
import { adoptFamilies, type SitePlan } from '../../site/plan/plan.ts';
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

const START = indexBody('An index.', 'Start with');

/** The article families edits of the index note plan again: in their passes, and at the quiet moment after them. */
async function replannedBy(...bodies: string[]): Promise<string[]> {
  const before = note(INDEX, START);
  const records = [
    before,
    note('A.md', '# A\n\nThe first.'),
    note('B.md', '# B\n\nThe second, which links back to [[Index]].'),
    note('C.md', '## Part one\n\nThe third.'),
    note('Embedded.md', 'Shown inside [[Index]].'),
    note('Embedder.md', 'The index shown in full:\n\n![[Index]]'),
  ];
  const plan = await planOf(records);
  const due = new DueWork();
  let was = before;
  for (const body of bodies) {
    const after = note(INDEX, body);
    const quick = quickPlan(plan, [{ path: INDEX as VaultPath, before: was, after }], [], { before: [], plan: () => [] });
    expect(quick).not.toBeNull();
    // The note's own article is planned in the pass; other notes' articles wait for a quiet moment (quick-pass.ts),
    // and so does telling which of the notes it links show it differently: no pass compares them.
    expect(quick!.families.map((f) => f.key).filter((k) => k.startsWith('article:'))).toEqual(['article:Index.md']);
    expect([...quick!.faces.keys()].sort()).toEqual(['article:A.md', 'article:B.md', 'article:C.md', 'article:Embedded.md', 'article:Embedder.md']);
    adoptFamilies(plan, quick!.families);
    due.add(plan, quick!);
    was = after;
  }
  return ['article:Index.md', ...due.keys(plan)].sort();
}

describe('an edit of a note linking others plans again only the articles whose view of it changed', () => {
  it('a sentence away from every link: the note itself and the note embedding it, not the notes it links or that link it', async () => {
    expect(await replannedBy(indexBody('An index of everything.', 'Start with'))).toEqual(['article:Embedder.md', 'article:Index.md']);
  });

  it('the sentence around one link: that linked note too (its "Linked from" shows the sentence)', async () => {
    expect(await replannedBy(indexBody('An index.', 'Begin with'))).toEqual(['article:A.md', 'article:Embedder.md', 'article:Index.md']);
  });

  it('a new heading: every note linking it (an anchor reads its headings) and those it links that show it in their backlinks', async () => {
    const keys = await replannedBy(`## Everything\n\n${START}`);
    expect(keys).toEqual(['article:A.md', 'article:B.md', 'article:C.md', 'article:Embedded.md', 'article:Embedder.md', 'article:Index.md']);
  });

  it('edits before the quiet moment are compared with what the pages were made from: a sentence changed and changed back plans nothing', async () => {
    expect(await replannedBy(indexBody('An index.', 'Begin with'), START)).toEqual(['article:Embedder.md', 'article:Index.md']);
    expect(await replannedBy(indexBody('An index.', 'Begin with'), indexBody('An index of all.', 'Begin with'))).toEqual(['article:A.md', 'article:Embedder.md', 'article:Index.md']);
  });
});

describe('the index of readers (plan.ts)', () => {
  /** Each note's readers as the families' own reads say: every family reading it, once. */
  const expected = (plan: SitePlan) => {
    const out = new Map<string, string[]>();
    for (const family of plan.families.values()) for (const r of new Set(family.reads.map((n) => n.path))) out.set(r, [...(out.get(r) ?? []), family.key]);
    return out;
  };
  const sorted = (m: Map<string, string[]>) => new Map([...m].map(([k, v]) => [k, [...v].sort()] as const).sort(([a], [b]) => a.localeCompare(b)));

  it('names each family showing a note once, and only those, after a whole plan and after re-planned families are taken in', async () => {
    const before = note(INDEX, indexBody('An index.', 'Start with'));
    // A note embedded twice and linked from several notes: read twice by one family, by many families.
    const records = [
      before,
      note('A.md', '# A\n\nThe first. ![[Embedded]] and again ![[Embedded]]'),
      note('B.md', '# B\n\nThe second, which links back to [[Index]] and [[A]].'),
      note('C.md', '## Part one\n\nThe third, after [[A]] and [[B]].'),
      note('Embedded.md', 'Shown inside [[Index]].'),
      note('Embedder.md', 'The index shown in full:\n\n![[Index]]'),
    ];
    const plan = await planOf(records);
    expect(plan.readers.get('Embedded.md' as VaultPath)!.length).toBeGreaterThan(1);
    expect(sorted(plan.readers)).toEqual(sorted(expected(plan)));
    // Twice over: the second adoption finds every key already there.
    let was = before;
    for (const lead of ['Begin with', 'Start from']) {
      const after = note(INDEX, indexBody('An index of all.', lead));
      const quick = quickPlan(plan, [{ path: INDEX as VaultPath, before: was, after }], [], { before: [], plan: () => [] })!;
      was = after;
      const due = new DueWork();
      due.add(plan, quick);
      expect(due.keys(plan)).toContain('article:A.md');
      adoptFamilies(plan, [...quick.families, ...due.keys(plan).map((k) => plan.families.get(k)!.replan())]);
      for (const [path, keys] of plan.readers) expect(new Set(keys).size, path).toBe(keys.length);
      // What a family read before stays listed (a stale key costs a look-up, never a missed page).
      for (const [path, keys] of expected(plan)) for (const k of keys) expect(plan.readers.get(path as VaultPath), path).toContain(k);
    }
    // A family taken in again with what it reads changed: indexed again, every key still once.
    const family = plan.families.get('article:B.md')!;
    const reads = [...family.reads];
    for (const extra of ['C.md', 'Embedder.md']) {
      reads.push(records.find((r) => r.path === extra)!);
      adoptFamilies(plan, [{ ...family, reads: [...reads] }]);
      for (const [path, keys] of plan.readers) expect(new Set(keys).size, path).toBe(keys.length);
      expect(plan.readers.get(extra as VaultPath)).toContain('article:B.md');
    }
  });
});
