// Each line's text direction comes from its own first strong character (as
// Obsidian does), never from the interface language; the frontmatter block is always
// left-to-right. A line with no strong character (blank, `---`, digits) takes the
// direction of the nearest line above it that has one.
import { RangeSetBuilder, type Text } from '@codemirror/state';
import { headingsOf, type Heading } from '../../../../shared/note/headings.ts';
import { RTL_LETTER as RTL } from '../../../../shared/note/language.ts';
import { Decoration, EditorView, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';

export type Dir = 'ltr' | 'rtl';

const STRONG = /\p{L}/u;

/** The direction of a text by its first strong character, or null when it has none. */
export function firstStrongDirection(text: string): Dir | null {
  for (const ch of text) {
    if (RTL.test(ch)) return 'rtl';
    if (STRONG.test(ch)) return 'ltr';
  }
  return null;
}

/** Last line number of a frontmatter block at the top of the note, or 0 when there is none. */
export function frontmatterEnd(doc: Text): number {
  if (doc.lines < 2 || doc.line(1).text.trimEnd() !== '---') return 0;
  // A frontmatter block is short; a note that opens with a lone `---` rule has no closing fence near.
  const last = Math.min(doc.lines, 500);
  for (let n = 2; n <= last; n++) {
    const text = doc.line(n).text.trimEnd();
    if (text === '---' || text === '...') return n;
  }
  return 0;
}

/** The headings of an editor's text (Outline, `[[#` suggestions), after its frontmatter. */
export function editorHeadings(doc: Text): Heading[] {
  return headingsOf({ count: doc.lines, at: (n) => doc.line(n).text }, frontmatterEnd(doc) + 1);
}

/** How far up a neutral line looks for the direction it continues. */
const LOOK_BACK = 200;

export function lineDirection(doc: Text, n: number, fmEnd: number): Dir {
  if (n <= fmEnd) return 'ltr';
  for (let i = n; i > Math.max(fmEnd, n - LOOK_BACK); i--) {
    const dir = firstStrongDirection(doc.line(i).text);
    if (dir) return dir;
  }
  // A neutral line at the top of the body: the first line below with a direction.
  for (let i = n + 1; i <= Math.min(doc.lines, n + LOOK_BACK); i++) {
    const dir = firstStrongDirection(doc.line(i).text);
    if (dir) return dir;
  }
  return 'ltr';
}

const marks = { ltr: Decoration.line({ attributes: { dir: 'ltr' } }), rtl: Decoration.line({ attributes: { dir: 'rtl' } }) };

function build(view: EditorView): DecorationSet {
  const doc = view.state.doc;
  const fmEnd = frontmatterEnd(doc);
  const builder = new RangeSetBuilder<Decoration>();
  let lastLine = 0;
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to; ) {
      const line = doc.lineAt(pos);
      if (line.number > lastLine) {
        builder.add(line.from, line.from, marks[lineDirection(doc, line.number, fmEnd)]);
        lastLine = line.number;
      }
      pos = line.to + 1;
    }
  }
  return builder.finish();
}

/** Per-line `dir` attributes; CodeMirror reads each line's direction from them (perLineTextDirection). */
export const lineDirections = [
  EditorView.perLineTextDirection.of(true),
  ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = build(view);
      }
      update(update: ViewUpdate) {
        if (update.docChanged || update.viewportChanged) this.decorations = build(update.view);
      }
    },
    { decorations: (v) => v.decorations },
  ),
];
