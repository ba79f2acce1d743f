// A note a git merge left half done and someone committed as it was (Obsidian Git's "commit
// and sync" takes whatever the files hold): `<<<<<<< HEAD`, `=======`, `>>>>>>> origin/main`
// lines around both sides, diff3's `||||||| base` between. Markdown reads the markers as a
// heading underline and seven nested quotes, and a reader sees both sides; Site health names
// the note (`merge-conflict` in build-warnings.ts). Markers shown in a code block are examples.
import type Token from 'markdown-it/lib/token.mjs';

const OURS = /^<{7}(?: |$)/;
const SEPARATOR = /^={7}$/;
const THEIRS = /^>{7}(?: |$)/;

/** The 1-based line of the text's first `<<<<<<<` marker, or null: where the admin's "Open at the line" puts the cursor. */
export function firstConflictLine(text: string): number | null {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) if (OURS.test(lines[i]!)) return i + 1;
  return null;
}

/** Lines (0-based) inside fenced or indented code, from the parse's block tokens. */
function codeLines(tokens: readonly Token[]): Set<number> {
  const lines = new Set<number>();
  for (const t of tokens) {
    if ((t.type !== 'fence' && t.type !== 'code_block') || !t.map) continue;
    for (let line = t.map[0]; line < t.map[1]; line++) lines.add(line);
  }
  return lines;
}

/** How many whole conflicts (ours, separator, theirs, in that order; a diff3 base is part of ours) the text holds outside code. */
export function mergeConflicts(text: string, tokens: readonly Token[]): number {
  if (!text.includes('<<<<<<<')) return 0;
  const code = codeLines(tokens);
  let conflicts = 0;
  let state: 'outside' | 'ours' | 'theirs' = 'outside';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (code.has(i)) continue;
    const line = lines[i]!.trimEnd();
    if (OURS.test(line)) state = 'ours';
    else if (state === 'ours' && SEPARATOR.test(line)) state = 'theirs';
    else if (state === 'theirs' && THEIRS.test(line)) {
      conflicts++;
      state = 'outside';
    }
  }
  return conflicts;
}
