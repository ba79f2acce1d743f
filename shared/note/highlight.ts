// Code blocks coloured at build time with Prism, the highlighter Eleventy's syntax-highlight
// plugin runs (its markdown hook is not used: it would write an unvetted language into a
// class and load any name `in` Prism's list, `constructor` included). A fence's language
// comes from the vault: it is looked up among the ids and aliases Prism ships, as own keys
// only, before anything loads; any other name, or none, leaves the block escaped and plain.
import { createRequire } from 'node:module';

interface Prism {
  languages: Record<string, unknown>;
  highlight(text: string, grammar: unknown, language: string): string;
}
interface LoadLanguages {
  (ids: string[]): void;
  silent: boolean;
}
type Ids = string | string[] | undefined;
interface Component {
  alias?: Ids;
  require?: Ids;
  optional?: Ids;
  modify?: Ids;
}

interface Highlighter {
  prism: Prism;
  load: LoadLanguages;
  components: Map<string, Component>;
  /** Every id and alias Prism ships (lowercase) → its component id. */
  ids: Map<string, string>;
  /** Component id → the components that change its grammar when they load. */
  modifiers: Map<string, string[]>;
  loaded: Set<string>;
}

const list = (ids: Ids): string[] => (ids === undefined ? [] : [ids].flat());

let highlighter: Highlighter | null = null;

/** Prism and its language list, read once on the first block that names a language. */
function prismHighlighter(): Highlighter {
  if (highlighter) return highlighter;
  const nodeRequire = createRequire(import.meta.url);
  const prism = nodeRequire('prismjs') as Prism;
  const load = nodeRequire('prismjs/components/index.js') as LoadLanguages;
  load.silent = true;
  const { languages } = nodeRequire('prismjs/components.json') as { languages: Record<string, Component> };
  const components = new Map(Object.entries(languages).filter(([id]) => id !== 'meta'));
  const ids = new Map<string, string>();
  const modifiers = new Map<string, string[]>();
  for (const [id, component] of components) {
    ids.set(id.toLowerCase(), id);
    for (const alias of list(component.alias)) if (!ids.has(alias.toLowerCase())) ids.set(alias.toLowerCase(), id);
    for (const changed of list(component.modify)) modifiers.set(changed, [...(modifiers.get(changed) ?? []), id]);
  }
  highlighter = { prism, load, components, ids, modifiers, loaded: new Set() };
  return highlighter;
}

/** The Prism component a fence's language names, or null when Prism ships no such language. */
export function prismLanguage(name: string): string | null {
  if (name === '' || name.length > 64) return null;
  return prismHighlighter().ids.get(name.toLowerCase()) ?? null;
}

/**
 * Loads `id` with everything its grammar is made of: what it requires, what it uses when
 * present, what modifies it. So a block comes out the same whatever blocks came before it
 * in this process (a `js` block once changed how later `html` blocks read).
 */
function loadWithGrammar(h: Highlighter, id: string): void {
  const wanted: string[] = [];
  const stack = [id];
  while (stack.length) {
    const next = stack.pop()!;
    const component = h.components.get(next);
    if (!component || h.loaded.has(next) || wanted.includes(next)) continue;
    wanted.push(next);
    stack.push(...list(component.require), ...list(component.optional), ...(h.modifiers.get(next) ?? []));
  }
  if (!wanted.length) return;
  h.load(wanted);
  for (const loaded of wanted) h.loaded.add(loaded);
}

/** Markdown's grammar (a `md` block, or one inside a js template) colours fenced code in it with whatever is loaded: those load first. */
function loadInnerFences(h: Highlighter, code: string): void {
  for (const m of code.matchAll(/^[ \t]*(?:```|~~~)[ \t]*([^\s`]+)/gm)) {
    const inner = prismLanguage(m[1]!);
    if (inner !== null) loadWithGrammar(h, inner);
  }
}

/**
 * markdown-it's `highlight` option: the code as Prism's token spans (Prism escapes the
 * text), or '' so markdown-it escapes it as plain text.
 */
export function highlightCode(code: string, name: string): string {
  const id = prismLanguage(name);
  if (id === null) return '';
  const h = prismHighlighter();
  try {
    loadWithGrammar(h, id);
    loadInnerFences(h, code);
    const grammar = Object.hasOwn(h.prism.languages, id) ? h.prism.languages[id] : undefined;
    // A helper component (markup-templating) is no grammar: plain text, like a name Prism lacks.
    return grammar && typeof grammar === 'object' ? h.prism.highlight(code, grammar, id) : '';
  } catch {
    return '';
  }
}
