// `[[` suggestions (issue 16): typing `[[` offers the vault's notes (by name, title and
// alias, folded like search), and after `#` the headings of the chosen note; brackets
// close themselves, and taking a suggestion leaves the cursor after `]]`.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { markdownLanguage } from '@codemirror/lang-markdown';
import type { EditorView } from '@codemirror/view';
import { keymap } from '@codemirror/view';
import { foldText } from '../../../../shared/text-fold.ts';
import { editorHeadings } from './direction.ts';
import { linkName, linkTextFor, resolveLink } from './links.ts';
import { editorTools } from './tools.ts';

const MAX_OPTIONS = 60;

/** Inserts `text` and closes the link, leaving the cursor after `]]`. */
function closeLink(text: string) {
  return (view: EditorView, _completion: Completion, from: number, to: number) => {
    const closing = view.state.sliceDoc(to, to + 2) === ']]' ? '' : ']]';
    view.dispatch({ changes: { from, to, insert: text + closing }, selection: { anchor: from + text.length + 2 }, userEvent: 'input.complete' });
  };
}

function noteOptions(query: string): Completion[] {
  const notes = editorTools.current?.notes() ?? [];
  const paths = notes.map((n) => n.path);
  const q = foldText(query.trim());
  const scored: { option: Completion; score: number }[] = [];
  for (const note of notes) {
    const text = linkTextFor(note.path, paths);
    const name = foldText(linkName(note.path.slice(note.path.lastIndexOf('/') + 1)));
    const title = foldText(note.title);
    let score = !q ? 1 : name.startsWith(q) ? 4 : title.startsWith(q) ? 3 : name.includes(q) || title.includes(q) ? 2 : foldText(note.path).includes(q) ? 1 : 0;
    if (score > 0) {
      scored.push({ option: { label: text, detail: note.title !== linkName(text.slice(text.lastIndexOf('/') + 1)) ? note.title : undefined, type: 'text', apply: closeLink(text) }, score });
    }
    for (const alias of note.aliases) {
      if (!q || foldText(alias).includes(q)) {
        score = foldText(alias).startsWith(q) ? 3 : 1;
        scored.push({ option: { label: alias, detail: `→ ${text}`, type: 'variable', apply: closeLink(`${text}|${alias}`) }, score });
      }
    }
  }
  scored.sort((a, b) => b.score - a.score || a.option.label.localeCompare(b.option.label));
  return scored.slice(0, MAX_OPTIONS).map((s) => s.option);
}

export function wikilinkSource(notePath: () => string) {
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    const open = context.matchBefore(/\[\[[^\[\]|\n]*$/);
    if (!open) return null;
    const inner = open.text.slice(2);
    const hash = inner.indexOf('#');
    if (hash < 0) return { from: open.from + 2, options: noteOptions(inner), filter: false };
    // `[[Note#` — the headings of that note (`[[#` — of this one).
    const target = inner.slice(0, hash);
    const tools = editorTools.current;
    const here = notePath();
    const path = tools ? resolveLink(target, here, tools.notes()) : null;
    if (!path || !tools) return null;
    const headings = path === here ? editorHeadings(context.view!.state.doc) : await tools.headings(path).catch(() => []);
    const q = foldText(inner.slice(hash + 1));
    return {
      from: open.from + 2 + hash + 1,
      filter: false,
      options: headings
        .filter((h) => foldText(h.text).includes(q))
        .map((h) => ({ label: h.text, detail: `H${h.level}`, type: 'property', apply: closeLink(h.text) })),
    };
  };
}

/** Autocompletion of links, and the brackets Obsidian closes: ( [ { ` (quotes stay as typed in prose). */
export function wikilinkCompletion(notePath: () => string) {
  return [
    markdownLanguage.data.of({ closeBrackets: { brackets: ['(', '[', '{', '`'] } }),
    closeBrackets(),
    autocompletion({ override: [wikilinkSource(notePath)], icons: false, activateOnTyping: true }),
    keymap.of([...closeBracketsKeymap, ...completionKeymap]),
  ];
}
