// A note's headings (`# …` to `###### …`) with their 1-based lines, skipping fenced
// code: the admin's Outline, its `[[Note#` suggestions and the server's note index.

export interface Heading {
  level: number;
  text: string;
  /** 1-based line of the note file. */
  line: number;
}

const LINE_BREAK = /[\n\r\u2028\u2029]/;
const isBlank = (code: number) => code === 0x20 || code === 0x09;

/**
 * An ATX heading's level and text (its closing `#`s gone, trimmed), or null: what
 * `/^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/` reads from `line`, in one pass. The expression
 * read a run of spaces once from each of its places: a heading of 100,000 spaces and a
 * letter took 14 s to parse.
 */
export function atxHeading(line: string): { level: number; text: string } | null {
  let level = 0;
  while (level < line.length && line.charCodeAt(level) === 0x23) level++;
  if (level === 0 || level > 6 || !isBlank(line.charCodeAt(level)) || LINE_BREAK.test(line)) return null;
  let start = level;
  while (isBlank(line.charCodeAt(start))) start++;
  let end = line.length;
  while (end > start && isBlank(line.charCodeAt(end - 1))) end--;
  let hashes = end;
  while (hashes > start && line.charCodeAt(hashes - 1) === 0x23) hashes--;
  let closing = hashes;
  while (closing > start && isBlank(line.charCodeAt(closing - 1))) closing--;
  // A closing run of `#`s: after the text's first character, with a space or tab before it.
  const textEnd = hashes < end && closing < hashes && closing > start ? closing : end;
  return { level, text: line.slice(start, textEnd).trim() };
}
const FENCE = /^\s*(`{3,}|~{3,})([^]*)$/;

/**
 * The headings of `lines` (the whole note), looking from line `firstBodyLine` (1-based, after
 * the frontmatter). A fence ends at a run of its own character at least as long, with nothing
 * after it (CommonMark): a ```` fence showing a ``` one holds all of it.
 */
export function headingsOf(lines: { count: number; at(n: number): string }, firstBodyLine = 1): Heading[] {
  const out: Heading[] = [];
  let fence: string | null = null;
  for (let n = firstBodyLine; n <= lines.count; n++) {
    const text = lines.at(n);
    const run = FENCE.exec(text);
    if (run && fence === null && (run[1]![0] === '~' || !run[2]!.includes('`'))) {
      fence = run[1]!;
      continue;
    }
    if (run && fence !== null && run[1]![0] === fence[0] && run[1]!.length >= fence.length && run[2]!.trim() === '') {
      fence = null;
      continue;
    }
    const heading = fence !== null ? null : atxHeading(text);
    if (heading) out.push({ ...heading, line: n });
  }
  return out;
}
