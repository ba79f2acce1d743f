// Ctrl/Cmd+B and Ctrl/Cmd+I: wrap the selection in `**` or `*`, or unwrap
// it when it is wrapped already; with nothing selected, the marks go around the cursor.
import { EditorSelection } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';

export function toggleMark(view: EditorView, mark: string): boolean {
  const { state } = view;
  const tr = state.changeByRange((range) => {
    const before = state.sliceDoc(range.from - mark.length, range.from);
    const after = state.sliceDoc(range.to, range.to + mark.length);
    // `**x**` around a bold selection (but not the `*` of a bold run when toggling italics).
    const wrapped =
      before === mark &&
      after === mark &&
      !(mark === '*' && state.sliceDoc(range.from - 2, range.from) === '**' && state.sliceDoc(range.to, range.to + 2) === '**');
    if (wrapped) {
      return {
        changes: [
          { from: range.from - mark.length, to: range.from, insert: '' },
          { from: range.to, to: range.to + mark.length, insert: '' },
        ],
        range: EditorSelection.range(range.from - mark.length, range.to - mark.length),
      };
    }
    const text = state.sliceDoc(range.from, range.to);
    if (text.startsWith(mark) && text.endsWith(mark) && text.length >= mark.length * 2) {
      return {
        changes: { from: range.from, to: range.to, insert: text.slice(mark.length, text.length - mark.length) },
        range: EditorSelection.range(range.from, range.to - mark.length * 2),
      };
    }
    return {
      changes: [
        { from: range.from, insert: mark },
        { from: range.to, insert: mark },
      ],
      range: EditorSelection.range(range.from + mark.length, range.to + mark.length),
    };
  });
  view.dispatch(state.update(tr, { scrollIntoView: true, userEvent: 'input' }));
  return true;
}

export const formattingKeymap = [
  { key: 'Mod-b', run: (view: EditorView) => toggleMark(view, '**') },
  { key: 'Mod-i', run: (view: EditorView) => toggleMark(view, '*') },
];
