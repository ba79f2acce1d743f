// One page's explorer, cut from the shared fragment (pages/nav.njk) when the page is served
// or rendered into a snapshot. A small vault's whole tree goes into every page; past
// WHOLE_MAX entries a page gets its path view: the root and each folder above it open,
// each level cut around the way to the page (LEVEL_MAX, ABOVE_MAX), other folders closed
// and empty. What is left out is one link away on the full explorer page (`/folder`,
// rendered once per build), which the browser's script fetches to fill the tree in. So a
// page's explorer stays the same size whatever the vault's, and the fragment stays one.
import { markExplorer } from './explorer.ts';

/** A tree this big (folders and notes) goes into every page whole. */
export const WHOLE_MAX = 250;
/** Entries of the page's own level a page shows past WHOLE_MAX, the page among them. */
export const LEVEL_MAX = 40;
/** Entries of a level above it, the folder on the way to the page among them. */
export const ABOVE_MAX = 16;

type Entry = { note: true; html: string } | { note: false; key: string; summary: string; entries: Entry[] };

interface ParsedExplorer {
  /** The fragment up to the tree's own list, and from its end. */
  head: string;
  tail: string;
  entries: Entry[];
  size: number;
  /** The full explorer page, and its "N more" words (`{n}`), from the tree's own list. */
  all: string;
  more: string;
  numbers: Intl.NumberFormat;
}

const TREE_OPEN = '<ul class="s-explorer-tree"';
const FOLDER_OPEN = '<li><details data-folder="';

/**
 * The fragment's tree as entries, or null when it is no explorer (the blog's topic row) or
 * not the markup pages/nav.njk writes (a theme's own): then it goes into pages as it is.
 * Titles are escaped, so a `<` in the fragment is always markup.
 */
function parse(fragment: string): ParsedExplorer | null {
  const start = fragment.indexOf(TREE_OPEN);
  const open = fragment.indexOf('>', start);
  if (start < 0 || open < 0) return null;
  let at = open + 1;
  let size = 0;
  const list = (): Entry[] | null => {
    const out: Entry[] = [];
    for (;;) {
      if (fragment.startsWith('</ul>', at)) {
        at += 5;
        return out;
      }
      if (fragment.startsWith(FOLDER_OPEN, at)) {
        const keyEnd = fragment.indexOf('">', at + FOLDER_OPEN.length);
        const summaryEnd = fragment.indexOf('</summary><ul>', keyEnd);
        if (keyEnd < 0 || summaryEnd < 0 || !fragment.startsWith('<summary>', keyEnd + 2)) return null;
        const key = fragment.slice(at + FOLDER_OPEN.length, keyEnd);
        const summary = fragment.slice(keyEnd + 2, summaryEnd + '</summary>'.length);
        at = summaryEnd + '</summary><ul>'.length;
        const entries = list();
        if (!entries || !fragment.startsWith('</details></li>', at)) return null;
        at += '</details></li>'.length;
        out.push({ note: false, key, summary, entries });
      } else if (fragment.startsWith('<li>', at)) {
        const end = fragment.indexOf('</li>', at);
        if (end < 0) return null;
        out.push({ note: true, html: fragment.slice(at, end + 5) });
        at = end + 5;
      } else return null;
      size++;
    }
  };
  const entries = list();
  if (!entries) return null;
  const tag = fragment.slice(start, open);
  const attribute = (name: string) => {
    const value = new RegExp(` ${name}="([^"]*)"`).exec(tag)?.[1];
    return value === undefined ? undefined : unescapeAttribute(value);
  };
  let numbers: Intl.NumberFormat;
  try {
    numbers = new Intl.NumberFormat(attribute('data-number-locale') ?? 'en');
  } catch {
    numbers = new Intl.NumberFormat('en');
  }
  return { head: fragment.slice(0, open + 1), tail: fragment.slice(at), entries, size, all: escapeAttribute(attribute('data-all') ?? '/folder'), more: attribute('data-more') ?? '{n}', numbers };
}

// The fragment changes once per build; every page of that build cuts from the same parse.
let last: { fragment: string; parsed: ParsedExplorer | null } | null = null;

function parsed(fragment: string): ParsedExplorer | null {
  if (last?.fragment !== fragment) last = { fragment, parsed: parse(fragment) };
  return last.parsed;
}

/**
 * A page's explorer. `here` is its marker (explorer.ts explorerHere: its own link and the
 * folders above it, encoded), '' for a page that is no note (a list, the search page).
 */
export function explorerFor(fragment: string, here: string): string {
  const tree = parsed(fragment);
  if (!tree || tree.size <= WHOLE_MAX) return here ? markExplorer(fragment, here) : fragment;
  const [href = '', ...folders] = here.split(' ');
  const open = new Set(folders);
  let current = '';
  try {
    current = decodeURIComponent(href);
  } catch {
    current = '';
  }
  const link = current ? `<a href="${escapeAttribute(current)}"` : null;
  const mark = (html: string) => {
    if (!link) return html;
    const i = html.indexOf(link);
    const next = html[i + link.length];
    return i >= 0 && (next === '>' || next === ' ') ? html.slice(0, i + link.length) + ' aria-current="page"' + html.slice(i + link.length) : html;
  };
  const more = (count: number, key: string) =>
    `<li class="s-explorer-more"><a href="${tree.all}${key === '' ? '' : `#s-folder-${key}`}" data-folder="${key}">${escapeText(tree.more.replace('{n}', tree.numbers.format(count)))}</a></li>`;
  const level = (entries: Entry[], key: string): string => {
    const on = entries.findIndex((e) => (e.note ? link !== null && mark(e.html) !== e.html : open.has(e.key)));
    const max = on >= 0 && !entries[on]!.note ? ABOVE_MAX : LEVEL_MAX;
    let from = 0;
    let to = entries.length;
    if (entries.length > max) {
      from = on < 0 ? 0 : Math.min(Math.max(0, on - max / 2), entries.length - max);
      to = from + max;
    }
    let out = from > 0 ? more(from, key) : '';
    for (let i = from; i < to; i++) {
      const e = entries[i]!;
      if (e.note) out += i === on ? mark(e.html) : e.html;
      else if (open.has(e.key)) out += `${FOLDER_OPEN}${e.key}" open>${mark(e.summary)}<ul>${level(e.entries, e.key)}</ul></details></li>`;
      // Closed: its entries are one link away (the script fills them in when it opens).
      else out += `${FOLDER_OPEN}${e.key}" data-partial>${e.summary}<ul>${e.entries.length ? more(e.entries.length, e.key) : ''}</ul></details></li>`;
    }
    return to < entries.length ? out + more(entries.length - to, key) : out;
  };
  return tree.head + level(tree.entries, '') + '</ul>' + tree.tail;
}

/** As the templates escape an attribute's value (and markExplorer looks links up). */
const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescapeAttribute = (s: string) => s.replace(/&(amp|quot|#39|lt|gt);/g, (_, e: string) => ({ amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>' })[e]!);
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
