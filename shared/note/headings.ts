// A note's headings (`# …` to `###### …`) with their 1-based lines, skipping fenced
// code: the admin's Outline, its `[[Note#` suggestions and the server's note index.

export interface Heading {
  level: number;
  text: string;
  /** 1-based line of the note file. */
  line: number;
}

const HEADING = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^\s*(```|~~~)/;

/** The headings of `lines` (the whole note), looking from line `firstBodyLine` (1-based, after the frontmatter). */
export function headingsOf(lines: { count: number; at(n: number): string }, firstBodyLine = 1): Heading[] {
  const out: Heading[] = [];
  let inCode = false;
  for (let n = firstBodyLine; n <= lines.count; n++) {
    const text = lines.at(n);
    if (FENCE.test(text)) {
      inCode = !inCode;
      continue;
    }
    const m = inCode ? null : HEADING.exec(text);
    if (m) out.push({ level: m[1]!.length, text: m[2]!.trim(), line: n });
  }
  return out;
}
