// The server logs the build's warnings once per note, not after every rebuild:
// the build process sends them with its answer, the server remembers what it wrote.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { cutAtBudget } from '../../shared/note/parse-budget.ts';
import { waitFor } from '../helpers/server.ts';

const WARNINGS_VAULT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/warnings/vault');
const BROKEN = 'Posts/Broken link.md: links to "Nowhere at all", which does not exist';

const blog = blogForFile({ fixture: false, beforeStart: (vault) => fs.cp(WARNINGS_VAULT, vault, { recursive: true }) });

const count = (text: string) => blog.output().split(text).length - 1;

describe('warnings in the server log', () => {
  it('are written once when the site is first built, each naming its note', async () => {
    // The list is logged sorted by note, one line each: its last line may come in a later
    // chunk of the server's output than its first (a CI run under load saw the first alone).
    const RESERVED = 'api/Reserved.md: is not published: its address /api/Reserved belongs to the site';
    await waitFor(() => count(RESERVED) > 0, 30_000);
    expect(count(BROKEN)).toBe(1);
    expect(blog.output()).toMatch(/warn +Posts\/Bad frontmatter\.md: the frontmatter block is malformed and was ignored/);
  });

  it('are not written again when an unrelated note is rebuilt', async () => {
    await fs.writeFile(path.join(blog.vault, 'Posts/Fine.md'), '---\npublish: true\ndate: 2026-03-04\n---\nREBUILT-ONCE back to [[Home]].\n');
    await blog.waitForPage('/Posts/Fine', (p) => p.text.includes('REBUILT-ONCE'));
    await fs.writeFile(path.join(blog.vault, 'Posts/Fine.md'), '---\npublish: true\ndate: 2026-03-04\n---\nREBUILT-TWICE back to [[Home]].\n');
    await blog.waitForPage('/Posts/Fine', (p) => p.text.includes('REBUILT-TWICE'));
    expect(count(BROKEN)).toBe(1);
  });

  it('a new problem is written when it appears, the old ones still once', async () => {
    await fs.writeFile(path.join(blog.vault, 'Posts/Fine.md'), '---\npublish: true\ndate: 2026-03-04\n---\nNOW-POINTING at [[Gone missing]].\n');
    await blog.waitForPage('/Posts/Fine', (p) => p.text.includes('NOW-POINTING'));
    await waitFor(() => count('Posts/Fine.md: links to "Gone missing", which does not exist') === 1, 5_000).catch((e) => {
      console.log(blog.output());
      throw e;
    });
    expect(count(BROKEN)).toBe(1);
  });
});

describe('a note with 100,000 missing embeds', () => {
  const embeds = Array.from({ length: 100_000 }, (_, i) => `![[Missing ${i}]]`).join('\n');
  const MANY = '---\npublish: true\ndate: 2026-03-05\n---\n' + embeds + '\n';
  const lines = () => blog.output().split('\n').filter((l) => l.includes('Posts/Many embeds.md:'));
  // Written whole (1.6 MB): a note read mid-write would have warnings of its own.
  const write = async (text: string) => {
    const file = path.join(blog.vault, 'Posts/Many embeds.md');
    await fs.writeFile(file + '.tmp', text);
    await fs.rename(file + '.tmp', file);
  };

  it('gives 20 warning lines and one that counts the rest, by kind; a save writes none again', async () => {
    // The embeds the note's parse reads (parse-budget.ts); Site health says the rest shows as written, first.
    const read = cutAtBudget(embeds + '\n')!.head.split('![[').length - 1;
    expect(read).toBeGreaterThan(40_000);
    await write(MANY);
    await waitFor(() => lines().some((l) => l.includes(`and ${read - 19} more warnings`)), 60_000);
    expect(lines()).toHaveLength(21);
    expect(lines()[0]).toContain('Posts/Many embeds.md: has more markup than one page reads');
    expect(lines().at(-1)).toMatch(new RegExp(`Posts/Many embeds\\.md: and ${read - 19} more warnings \\(${read - 19} missing-embed\\)$`));
    await write(MANY.replace('date: 2026-03-05', 'date: 2026-03-06'));
    await blog.waitForPage('/Posts/Many-embeds', (p) => p.status === 200 && p.text.includes('2026-03-06'), 60_000);
    expect(lines()).toHaveLength(21);
  });
});
