// Wikilinks: [[Target]], [[Target|alias]], [[Target#heading]], ![[embed]].
const WIKILINK = /(!?)\[\[([^\[\]|#\n]+?)(#[^\[\]|\n]*)?(\|[^\[\]\n]*)?\]\]/g;

export interface WikiLink {
  target: string;
  heading: string | null;
  alias: string | null;
  embed: boolean;
}

export function parseWikiLinks(text: string): WikiLink[] {
  const out: WikiLink[] = [];
  for (const m of text.matchAll(WIKILINK)) {
    out.push({
      embed: m[1] === '!',
      target: m[2]!.trim(),
      heading: m[3] ? m[3].slice(1) : null,
      alias: m[4] ? m[4].slice(1) : null,
    });
  }
  return out;
}

/** Link target without a note extension, compared case-insensitively as Obsidian does. */
export function linkKey(target: string): string {
  return target.replace(/\.(md|markdown)$/i, '').toLowerCase();
}

/**
 * Rewrites every wikilink whose target `map` renames. `map` receives the target as
 * written and returns the new target, or null to leave the link alone.
 */
export function rewriteWikiLinks(text: string, map: (target: string) => string | null): string {
  if (!text.includes('[[')) return text;
  return text.replace(WIKILINK, (whole, bang: string, target: string, heading?: string, alias?: string) => {
    const next = map(target.trim());
    if (next === null) return whole;
    return `${bang}[[${next}${heading ?? ''}${alias ?? ''}]]`;
  });
}
