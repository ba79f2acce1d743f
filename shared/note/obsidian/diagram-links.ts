// A mermaid node given the class `internal-link` (`class A,B internal-link;` or `A:::internal-link`)
// is, in Obsidian, a link to the note its text names (`A[Biology]` leads to Biology): family trees,
// architecture notes and course maps use it. The nodes and their texts are read from the source
// here; each text is resolved per page as a link is (a note a visitor cannot see links nowhere),
// and the client's diagram script wraps the drawn node in a link (site/client/diagrams.ts).

/** The `class …` statements naming `internal-link`, one per line. */
const CLASS_STATEMENT = /^[ \t]{0,100}class[ \t]{1,100}([^\s;]{1,2000})[ \t]{1,100}internal-link[ \t]{0,100};?[ \t]{0,100}$/gm;
const ID_CHAR = /[\p{L}\p{N}_-]/u;
/** An id starts with a letter, digit or `_`: an arrow's dashes are no node. */
const ID_START = /[\p{L}\p{N}_]/u;
/** The shapes' brackets, longest first, and what closes each. */
const SHAPES: [open: string, close: string][] = [['[[', ']]'], ['[(', ')]'], ['((', '))'], ['([', '])'], ['{{', '}}'], ['[/', '/]'], ['[\\', '\\]'], ['[', ']'], ['(', ')'], ['{', '}']];
const SHORTHAND = ':::internal-link';
const MAX_LINKED = 200;

interface WrittenNode {
  id: string;
  /** The text in its shape's brackets, unquoted, or null. */
  text: string | null;
  /** Where the node ends on its line. */
  end: number;
}

/** The nodes written on one line, in order: each id, and the text of the shape after it. */
function nodesOfLine(line: string): WrittenNode[] {
  const out: WrittenNode[] = [];
  let i = 0;
  while (i < line.length) {
    if (!ID_START.test(line[i]!) || (i > 0 && ID_CHAR.test(line[i - 1]!))) {
      i++;
      continue;
    }
    let j = i;
    while (j < line.length && j - i < 100 && ID_CHAR.test(line[j]!)) j++;
    let k = j;
    while (line[k] === ' ' || line[k] === '\t') k++;
    const shape = SHAPES.find(([open]) => line.startsWith(open, k));
    let text: string | null = null;
    let end = j;
    const close = shape ? line.indexOf(shape[1], k + shape[0].length) : -1;
    if (shape && close >= 0) {
      text = line.slice(k + shape[0].length, close).trim();
      if (text.length > 1 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1).trim();
      end = close + shape[1].length;
    }
    out.push({ id: line.slice(i, j), text, end });
    i = Math.max(end, j);
  }
  return out;
}

/** Each node id the diagram links, with the text it shows (its id when it has none): what a reader clicks. */
export function linkedDiagramNodes(source: string): [id: string, text: string][] {
  if (!source.includes('internal-link')) return [];
  const ids = new Set<string>();
  for (const m of source.matchAll(CLASS_STATEMENT)) for (const id of m[1]!.split(',')) if (id.trim()) ids.add(id.trim());
  const texts = new Map<string, string>();
  const written: WrittenNode[][] = source.split('\n').map(nodesOfLine);
  source.split('\n').forEach((line, n) => {
    for (const node of written[n]!) if (line.startsWith(SHORTHAND, node.end)) ids.add(node.id);
  });
  for (const node of written.flat()) if (node.text && ids.has(node.id) && !texts.has(node.id)) texts.set(node.id, node.text);
  return [...ids].slice(0, MAX_LINKED).map((id) => [id, texts.get(id) || id]);
}
