// Generates a synthetic vault for the benchmarks: `count` notes in 100 folders,
// about 70% published, with tags, dates, wikilinks and a few paragraphs each, written
// in Obsidian's dialect as real vaults are: highlights, inline tags, block
// ids, private %% comments, callouts, footnotes, task lists, math, embeds, diagrams.
import { promises as fs } from 'node:fs';
import path from 'node:path';

const WORDS = 'vault note git sync publish draft garden idea river stone light paper ink time city memory'.split(' ');

function sentence(seed: number, words = 14): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 31 + i * 7) % WORDS.length]!);
  const s = out.join(' ');
  return s[0]!.toUpperCase() + s.slice(1) + '.';
}

/**
 * Obsidian's syntax: highlights, tags and block ids on every note; callouts on one in three,
 * footnotes on one in four, task lists on one in six; private comments, embeds and math on
 * one in twenty to twenty-five, diagrams on one in fifty (rarer things on fewer, as in real vaults).
 */
function obsidianBlocks(i: number, count: number): string[] {
  // The inline tag repeats a frontmatter one: the same topics either way, so a build
  // before inline tags were tags makes as many topic pages.
  const out = [`A ==highlighted idea== about #area${i % 7} and a paragraph others link to. ^b${i}`];
  if (i % 20 === 0) out.push(`Public words %% a private remark ${i} %% more public words.`);
  if (i % 3 === 0) out.push(`> [!tip] A tip for note ${i}\n> ${sentence(i + 2)}`);
  if (i % 7 === 0) out.push(`> [!faq]- A folded question\n> ${sentence(i + 3)}`);
  if (i % 4 === 0) out.push(`A claim with a footnote.[^1]\n\n[^1]: ${sentence(i + 4, 8)}`);
  if (i % 6 === 0) out.push('- [x] done\n- [ ] to do');
  if (i % 25 === 0) out.push(`Math: $x_{${i}}^2 + y^2 = r^2$.`);
  if (i % 20 === 0) out.push(`![[Note ${(i * 3 + 1) % count}#Section]]`);
  if (i % 50 === 0) out.push('```mermaid\ngraph LR\n  A --> B\n```');
  return out;
}

export function noteText(i: number, count: number): string {
  const published = i % 10 < 7;
  const day = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000 * 5).toISOString().slice(0, 10);
  const tags = [`topic${i % 20}`, `area${i % 7}`];
  const link = `[[Note ${(i * 7 + 3) % count}]]`;
  const paragraphs = [0, 1, 2, 3].map((p) => `${sentence(i + p)} ${sentence(i + p + 5)} ${sentence(i + p + 9)}`);
  // The first paragraph stays plain prose: it is the excerpt the edit benchmark changes.
  return `---\ntitle: Note ${i}\npublish: ${published}\ndate: ${day}\ntags: [${tags.join(', ')}]\n---\n\n${paragraphs[0]} See ${link}.\n\n## Section\n\n${[...paragraphs.slice(1), ...obsidianBlocks(i, count)].join('\n\n')}\n`;
}

export function notePath(i: number): string {
  return `Folder ${i % 100}/Note ${i}.md`;
}

export async function generateVault(dir: string, count: number): Promise<void> {
  const batch: Promise<void>[] = [];
  for (let f = 0; f < 100; f++) await fs.mkdir(path.join(dir, `Folder ${f}`), { recursive: true });
  for (let i = 0; i < count; i++) {
    batch.push(fs.writeFile(path.join(dir, notePath(i)), noteText(i, count)));
    if (batch.length >= 200) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
