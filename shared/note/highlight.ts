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
interface Component {
  alias?: string | string[];
}

interface Highlighter {
  prism: Prism;
  load: LoadLanguages;
  /** Every id and alias Prism ships (lowercase) → its component id. */
  ids: Map<string, string>;
}

let highlighter: Highlighter | null = null;

/** Prism and its language list, read once on the first block that names a language. */
function prismHighlighter(): Highlighter {
  if (highlighter) return highlighter;
  const nodeRequire = createRequire(import.meta.url);
  const prism = nodeRequire('prismjs') as Prism;
  const load = nodeRequire('prismjs/components/index.js') as LoadLanguages;
  load.silent = true;
  const { languages } = nodeRequire('prismjs/components.json') as { languages: Record<string, Component> };
  const ids = new Map<string, string>();
  for (const [id, component] of Object.entries(languages)) {
    if (id === 'meta') continue;
    ids.set(id.toLowerCase(), id);
    for (const alias of [component.alias ?? []].flat()) if (!ids.has(alias.toLowerCase())) ids.set(alias.toLowerCase(), id);
  }
  highlighter = { prism, load, ids };
  return highlighter;
}

/** The Prism component a fence's language names, or null when Prism ships no such language. */
export function prismLanguage(name: string): string | null {
  if (name === '' || name.length > 64) return null;
  return prismHighlighter().ids.get(name.toLowerCase()) ?? null;
}

/**
 * markdown-it's `highlight` option: the code as Prism's token spans (Prism escapes the
 * text), or '' so markdown-it escapes it as plain text.
 */
export function highlightCode(code: string, name: string): string {
  const id = prismLanguage(name);
  if (id === null) return '';
  const { prism, load } = prismHighlighter();
  try {
    if (!Object.hasOwn(prism.languages, id)) load([id]);
    const grammar = Object.hasOwn(prism.languages, id) ? prism.languages[id] : undefined;
    // A helper component (markup-templating) is no grammar: plain text, like a name Prism lacks.
    return grammar && typeof grammar === 'object' ? prism.highlight(code, grammar, id) : '';
  } catch {
    return '';
  }
}
