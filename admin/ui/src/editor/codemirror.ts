// The CodeMirror 6 editor for one note: Markdown highlighting, undo history, line
// wrapping, per-line text direction from each line's own text (direction.ts), find in
// note (Ctrl/Cmd+F), `[[` suggestions with closing brackets, Ctrl/Cmd+B/I, Ctrl/Cmd+click
// on a wikilink, and images pasted or dropped into the note.
import { defaultKeymap, history, historyKeymap, isolateHistory, undo } from '@codemirror/commands';
import { deleteMarkupBackward, insertNewlineContinueMarkup } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, Transaction } from '@codemirror/state';
import { drawSelection, EditorView, keymap, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { lineDirections } from './direction.ts';
import { formattingKeymap } from './formatting.ts';
import { vaultMarkdown } from './markdown-syntax.ts';
import { vaultHandlers } from './vault-handlers.ts';
import { wikilinkCompletion } from './wikilink-complete.ts';
import type { EditorDoc } from './session.ts';

const highlight = HighlightStyle.define([
  { tag: tags.heading1, class: 'cm-h cm-h1' },
  { tag: tags.heading2, class: 'cm-h cm-h2' },
  { tag: [tags.heading3, tags.heading4, tags.heading5, tags.heading6], class: 'cm-h' },
  { tag: tags.strong, class: 'cm-strong' },
  { tag: tags.emphasis, class: 'cm-em' },
  { tag: tags.strikethrough, class: 'cm-strike' },
  { tag: [tags.link, tags.url], class: 'cm-link' },
  { tag: tags.monospace, class: 'cm-code' },
  { tag: [tags.processingInstruction, tags.meta, tags.contentSeparator], class: 'cm-mark' },
  { tag: tags.quote, class: 'cm-quote' },
  { tag: tags.list, class: 'cm-list' },
]);

/** CodeMirror joins lines with `\n`; a note written with `\r\n` throughout (on Windows) keeps it. */
const lineBreakOf = (text: string): string => (text.includes('\r\n') && !/(?:^|[^\r])\n|\r(?!\n)/.test(text) ? '\r\n' : '\n');
const withLf = (text: string): string => (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text);

/**
 * The note's text as its file holds it, from the editor's lines: the very bytes loaded while the
 * lines are unchanged (opening a Windows note, or one of mixed line breaks, and leaving it wrote it
 * back with `\n`), else the lines joined by the note's own line break.
 */
class DiskText {
  private loaded = '';
  private loadedLf = '';
  private lineBreak = '\n';

  constructor(text: string) {
    this.took(text);
  }

  /** The file's text now held: what an unchanged editor gives back. */
  took(text: string): void {
    [this.loaded, this.loadedLf, this.lineBreak] = [text, withLf(text), lineBreakOf(text)];
  }

  of(lines: string): string {
    if (lines === this.loadedLf) return this.loaded;
    return this.lineBreak === '\n' ? lines : lines.replace(/\n/g, this.lineBreak);
  }
}

/** Replaces only the differing middle, so the cursor and scroll stay where they were. */
function minimalChange(before: string, after: string): { from: number; to: number; insert: string } {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}

export interface NoteEditor extends EditorDoc {
  view: EditorView;
  /** Puts the cursor at `at` (a document offset), scrolls it into view and focuses the editor. */
  focusAt(at: number): void;
  /** Takes no typing while the note's file is read-only; the cursor, find and copy still work. */
  setReadOnly(readOnly: boolean): void;
  destroy(): void;
}

export interface NoteEditorOptions {
  label: string;
  onEdit: () => void;
  /** The note's current path (a rename changes it). */
  path: () => string;
  /** CodeMirror's own words (the find panel) in the interface language. */
  phrases?: Record<string, string>;
}

const readOnlyExtensions = (readOnly: boolean) => [EditorState.readOnly.of(readOnly), EditorView.contentAttributes.of({ 'aria-readonly': String(readOnly) })];

export function createNoteEditor(parent: HTMLElement, text: string, options: NoteEditorOptions): NoteEditor {
  const readOnly = new Compartment();
  const state = EditorState.create({
    doc: text,
    extensions: [
      history(),
      drawSelection(),
      wikilinkCompletion(options.path),
      search({ top: true }),
      highlightSelectionMatches(),
      keymap.of([
        { key: 'Enter', run: insertNewlineContinueMarkup },
        { key: 'Backspace', run: deleteMarkupBackward },
        ...formattingKeymap,
        ...searchKeymap,
        ...defaultKeymap,
        ...historyKeymap,
      ]),
      vaultHandlers(options.path),
      EditorState.phrases.of(options.phrases ?? {}),
      vaultMarkdown,
      syntaxHighlighting(highlight),
      EditorView.lineWrapping,
      lineDirections,
      EditorView.contentAttributes.of({ 'aria-label': options.label, spellcheck: 'true' }),
      readOnly.of(readOnlyExtensions(false)),
      placeholder('…'),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) options.onEdit();
      }),
    ],
  });
  const view = new EditorView({ state, parent });
  const disk = new DiskText(text);
  let destroyed = false;
  return {
    view,
    getText: () => disk.of(view.state.doc.toString()),
    replace(next, undoable) {
      disk.took(next);
      view.dispatch({
        changes: minimalChange(view.state.doc.toString(), withLf(next)),
        annotations: undoable
          ? [isolateHistory.of('full'), Transaction.userEvent.of('input.replace')]
          : [Transaction.addToHistory.of(false), Transaction.remote.of(true)],
      });
    },
    undo: () => undo(view),
    focusAt(at) {
      const pos = Math.max(0, Math.min(at, view.state.doc.length));
      view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
      view.focus();
    },
    setReadOnly(on) {
      if (!destroyed && view.state.readOnly !== on) view.dispatch({ effects: readOnly.reconfigure(readOnlyExtensions(on)) });
    },
    destroy() {
      destroyed = true;
      view.destroy();
    },
  };
}
