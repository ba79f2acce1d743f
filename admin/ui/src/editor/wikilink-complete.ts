// `[[` suggestions: typing `[[` offers the vault's notes (by name, title and
// alias, folded like search), after `#` the headings of the chosen note, and after `#^` its
// blocks (a block without an id gets one, as in Obsidian); brackets close themselves, and
// taking a suggestion leaves the cursor after `]]`. From a published note, published notes
// come first and the others say they are not (their link is grey text).
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { markdownLanguage } from '@codemirror/lang-markdown';
import type { ChangeSet, EditorState, Text } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { keymap } from '@codemirror/view';
import { foldText } from '../../../../shared/text-fold.ts';
import { isTrue, readKey } from '../tree/frontmatter.ts';
import { blockList, type NoteBlock } from './block-links.ts';
import { editorHeadings } from './direction.ts';
import { linkName, linkTextFor, resolveLink } from './links.ts';
import { editorTools } from './tools.ts';
import type { Heading } from '../types.ts';

const MAX_OPTIONS = 60;
/** Where `publish:` is looked for: the frontmatter is at the top, and a long note is not read whole per key. */
const FRONTMATTER_SPAN = 16_384;

/** Inserts `text` and closes the link, leaving the cursor after `]]`. */
function closeLink(text: string) {
  return (view: EditorView, _completion: Completion, from: number, to: number) => {
    const closing = view.state.sliceDoc(to, to + 2) === ']]' ? '' : ']]';
    view.dispatch({ changes: { from, to, insert: text + closing }, selection: { anchor: from + text.length + 2 }, userEvent: 'input.complete' });
  };
}

/** Suggestions of notes visitors cannot read, marked in the list (a WeakSet: options are made per keystroke). */
const unpublishedOptions = new WeakSet<Completion>();

/** The small "not published" label after such a suggestion, in the editor's language (its phrases). */
function notPublishedLabel(completion: Completion, state: EditorState): Node | null {
  if (!unpublishedOptions.has(completion)) return null;
  const label = document.createElement('span');
  label.className = 'cm-not-published';
  label.textContent = state.phrase('not published');
  return label;
}

/** Ranks above every score: from a published note, a link to a published one works for readers. */
const PUBLISHED_FIRST = 10;

function noteOptions(query: string, fromPublished: boolean): Completion[] {
  const notes = editorTools.current?.notes() ?? [];
  const paths = notes.map((n) => n.path);
  const q = foldText(query.trim());
  const scored: { option: Completion; score: number }[] = [];
  for (const note of notes) {
    const text = linkTextFor(note.path, paths);
    const name = foldText(linkName(note.path.slice(note.path.lastIndexOf('/') + 1)));
    const title = foldText(note.title);
    const rank = fromPublished && note.publish ? PUBLISHED_FIRST : 0;
    const mark = (option: Completion) => {
      if (fromPublished && !note.publish) unpublishedOptions.add(option);
      return option;
    };
    let score = !q ? 1 : name.startsWith(q) ? 4 : title.startsWith(q) ? 3 : name.includes(q) || title.includes(q) ? 2 : foldText(note.path).includes(q) ? 1 : 0;
    if (score > 0) {
      const option = { label: text, detail: note.title !== linkName(text.slice(text.lastIndexOf('/') + 1)) ? note.title : undefined, type: 'text', apply: closeLink(text) };
      scored.push({ option: mark(option), score: score + rank });
    }
    for (const alias of note.aliases) {
      if (!q || foldText(alias).includes(q)) {
        score = foldText(alias).startsWith(q) ? 3 : 1;
        scored.push({ option: mark({ label: alias, detail: `→ ${text}`, type: 'variable', apply: closeLink(`${text}|${alias}`) }), score: score + rank });
      }
    }
  }
  scored.sort((a, b) => b.score - a.score || a.option.label.localeCompare(b.option.label));
  return scored.slice(0, MAX_OPTIONS).map((s) => s.option);
}

/**
 * Another note's headings or blocks, fetched once and then answered at once: each key typed
 * after `#` asks again, and an answer that has to wait leaves the list pending, when Enter would
 * start a new line instead of taking the suggestion shown. Known answers older than a while are
 * still given at once, and fetched again behind them.
 */
class Fetched<T> {
  private entries = new Map<string, { at: number; value: T; pending: Promise<T> | null }>();
  constructor(private empty: T) {}

  get(path: string, fetch: () => Promise<T>): T | Promise<T> {
    let entry = this.entries.get(path);
    if (!entry) this.entries.set(path, (entry = { at: 0, value: this.empty, pending: null }));
    if (!entry.pending && Date.now() - entry.at >= FRESH_MS) {
      const known = entry;
      known.pending = fetch()
        .catch(() => known.value)
        .then((value) => {
          Object.assign(known, { value, at: Date.now(), pending: null });
          return value;
        });
    }
    // Never fetched: the list waits for the first answer, once. After that, what is known answers at once.
    return entry.at === 0 ? entry.pending! : entry.value;
  }

  /** Known to have changed (this window changed it): the next ask waits for a fresh answer. */
  forget(path: string): void {
    this.entries.delete(path);
  }
}
const FRESH_MS = 10_000;
const fetchedHeadings = new Fetched<Heading[]>([]);
const fetchedBlocks = new Fetched<NoteBlock[]>([]);

/** The blocks of the note being edited, read once per version of its text. */
const docBlocks = new WeakMap<Text, NoteBlock[]>();

function blocksOfDoc(doc: Text): NoteBlock[] | Promise<NoteBlock[]> {
  const known = docBlocks.get(doc);
  if (known) return known;
  const list = blockList();
  const read = (m: Awaited<typeof list>) => {
    const blocks = m.noteBlocks(doc.toString());
    docBlocks.set(doc, blocks);
    return blocks;
  };
  return list instanceof Promise ? list.then(read) : read(list);
}

/** Suggestions of blocks matching `q` (their text or id); taking one without an id gives it one. */
function blockOptions(blocks: NoteBlock[], q: string, path: string, here: string): Completion[] {
  return blocks
    .filter((b) => !q || foldText(b.text).includes(q) || (b.id !== null && foldText(b.id).startsWith(q)))
    .slice(0, MAX_OPTIONS)
    .map((b) => ({ label: b.text || `^${b.id ?? ''}`, detail: b.id ? `^${b.id}` : undefined, type: 'text', apply: b.id ? closeLink(`^${b.id}`) : linkNewId(b, blocks, path, here) }));
}

/**
 * Links a block that has no id yet, giving it a new one: in this note, in the same change as
 * the link (one undo step); in another note, through the app (its open tab, or a checked save).
 */
function linkNewId(block: NoteBlock, listed: NoteBlock[], path: string, here: string) {
  return (view: EditorView, _completion: Completion, from: number, to: number) => {
    const list = blockList();
    if (list instanceof Promise) return;
    const closing = view.state.sliceDoc(to, to + 2) === ']]' ? '' : ']]';
    const after = (changes: ChangeSet) => changes.mapPos(to + (closing ? 0 : 2), 1);
    const id = list.newBlockId(listed.map((b) => b.id));
    if (path === here) {
      const text = view.state.doc.toString();
      const now = list.sameBlock(text, block);
      if (!now) return;
      const changes = view.state.changes([{ from, to, insert: `^${id}${closing}` }, list.blockIdChange(text, now, id)]);
      view.dispatch({ changes, selection: { anchor: after(changes) }, userEvent: 'input.complete' });
      return;
    }
    const tools = editorTools.current;
    if (!tools) return;
    const changes = view.state.changes({ from, to, insert: `^${id}${closing}` });
    view.dispatch({ changes, selection: { anchor: after(changes) }, userEvent: 'input.complete' });
    fetchedBlocks.forget(path);
    void tools
      .addBlockId(path, block, id)
      .catch((err) => tools.fail(err))
      .finally(() => fetchedBlocks.forget(path));
  };
}

export function wikilinkSource(notePath: () => string) {
  const source = (context: CompletionContext): CompletionResult | null | Promise<CompletionResult | null> => {
    const answer = suggest(context);
    return answer instanceof Promise ? answer.then(withUpdate) : withUpdate(answer);
  };
  /**
   * Each key typed re-runs the source in the same transaction when its answer is at
   * hand. Without `update` CodeMirror waits (a 100 ms debounce, then the query) and
   * disables the list meanwhile, so an Enter on the suggestion shown starts a new line.
   */
  const withUpdate = (result: CompletionResult | null): CompletionResult | null =>
    result && {
      ...result,
      update: (_current, _from, _to, context) => {
        const next = source(context);
        return next instanceof Promise ? null : next;
      },
    };
  const suggest = (context: CompletionContext): CompletionResult | null | Promise<CompletionResult | null> => {
    const open = context.matchBefore(/\[\[[^\[\]|\n]*$/);
    if (!open) return null;
    const inner = open.text.slice(2);
    const hash = inner.indexOf('#');
    if (hash < 0) {
      const fromPublished = isTrue(readKey(context.state.sliceDoc(0, Math.min(context.state.doc.length, FRONTMATTER_SPAN)), 'publish'));
      return { from: open.from + 2, options: noteOptions(inner, fromPublished), filter: false };
    }
    // `[[Note#` — the headings of that note (`[[#` — of this one); `[[Note#^` — its blocks.
    const target = inner.slice(0, hash);
    const tools = editorTools.current;
    const here = notePath();
    const path = tools ? resolveLink(target, here, tools.notes()) : null;
    if (!path || !tools) return null;
    const rest = inner.slice(hash + 1);
    const from = open.from + 2 + hash + 1;
    if (rest.startsWith('^')) {
      // A LaTeX note has no Markdown blocks: an id written into it would be a stray `^` in its TeX.
      if (/\.tex$/i.test(path)) return null;
      const q = foldText(rest.slice(1));
      const result = (blocks: NoteBlock[]): CompletionResult => ({ from, filter: false, options: blockOptions(blocks, q, path, here) });
      const blocks =
        path === here
          ? blocksOfDoc(context.state.doc)
          : fetchedBlocks.get(path, async () => (await blockList()).noteBlocks(await tools.noteText(path)));
      return Array.isArray(blocks) ? result(blocks) : blocks.then(result);
    }
    const q = foldText(rest);
    const result = (headings: Heading[]): CompletionResult => ({
      from,
      filter: false,
      options: headings
        .filter((h) => foldText(h.text).includes(q))
        .map((h) => ({ label: h.text, detail: `H${h.level}`, type: 'property', apply: closeLink(h.text) })),
    });
    const headings = path === here ? editorHeadings(context.state.doc) : fetchedHeadings.get(path, () => tools.headings(path));
    // Known headings answer at once: the list is never pending while they are typed.
    return Array.isArray(headings) ? result(headings) : headings.then(result);
  };
  return source;
}

/** Autocompletion of links, and the brackets Obsidian closes: ( [ { ` (quotes stay as typed in prose). */
export function wikilinkCompletion(notePath: () => string) {
  return [
    markdownLanguage.data.of({ closeBrackets: { brackets: ['(', '[', '{', '`'] } }),
    closeBrackets(),
    autocompletion({ override: [wikilinkSource(notePath)], icons: false, activateOnTyping: true, addToOptions: [{ render: notPublishedLabel, position: 90 }] }),
    keymap.of([...closeBracketsKeymap, ...completionKeymap]),
  ];
}
