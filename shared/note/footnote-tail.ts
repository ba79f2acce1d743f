// markdown-it-footnote's last core rule (`footnote_tail`), made linear in the note. It moves
// each footnote's definition to the end of the note and adds the footnote list there; the
// plugin's own rule copies the note's whole token list once per footnote
// (`tokens = tokens.concat(…)`), and a note of 10,000 footnotes took four seconds to parse.
// Put in its place with markdown-it's Ruler.at; the tokens made are the plugin's (its
// renderer rules draw them), in the same order: test/unit/footnote-tail.test.ts compares.
import type MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';

interface FootnoteEntry {
  label?: string;
  count: number;
  /** An inline footnote's content (`^[…]`), parsed. */
  tokens?: Token[];
  content?: string;
}

/**
 * The tokens outside footnote definitions, and each definition's tokens by label, as the
 * plugin takes them out of the flow (a label's last definition wins; one nested in another
 * ends both). Which definitions the page then shows is which labels the note refers to.
 */
export function takeDefinitions(tokens: Token[]): { flow: Token[]; definitions: Map<string, Token[] | null> } {
  const definitions = new Map<string, Token[] | null>();
  const flow: Token[] = [];
  let current: Token[] | null = null;
  let currentLabel = '';
  for (const token of tokens) {
    if (token.type === 'footnote_reference_open') {
      current = [];
      currentLabel = (token.meta as { label: string }).label;
    } else if (token.type === 'footnote_reference_close') {
      definitions.set(currentLabel, current);
      current = null;
    } else if (current) current.push(token);
    else flow.push(token);
  }
  return { flow, definitions };
}

function footnoteTail(state: StateCore): void {
  const footnotes = (state.env as { footnotes?: { list?: FootnoteEntry[] } }).footnotes;
  if (!footnotes) return;
  const { flow, definitions } = takeDefinitions(state.tokens);
  state.tokens = flow;
  const list = footnotes.list;
  if (!list) return;
  flow.push(new state.Token('footnote_block_open', '', 1));
  for (let i = 0; i < list.length; i++) {
    const entry = list[i]!;
    const open = new state.Token('footnote_open', '', 1);
    open.meta = { id: i, label: entry.label };
    flow.push(open);
    let tokens: Token[] | undefined;
    if (entry.tokens) {
      const paragraphOpen = new state.Token('paragraph_open', 'p', 1);
      paragraphOpen.block = true;
      const inline = new state.Token('inline', '', 0);
      inline.children = entry.tokens;
      inline.content = entry.content ?? '';
      const paragraphClose = new state.Token('paragraph_close', 'p', -1);
      paragraphClose.block = true;
      tokens = [paragraphOpen, inline, paragraphClose];
    } else if (entry.label) tokens = definitions.get(entry.label) ?? undefined;
    if (tokens) for (const token of tokens) flow.push(token);
    // The back references go inside the definition's last paragraph.
    const lastParagraph = flow[flow.length - 1]!.type === 'paragraph_close' ? flow.pop()! : null;
    for (let j = 0; j < (entry.count > 0 ? entry.count : 1); j++) {
      const anchor = new state.Token('footnote_anchor', '', 0);
      anchor.meta = { id: i, subId: j, label: entry.label };
      flow.push(anchor);
    }
    if (lastParagraph) flow.push(lastParagraph);
    flow.push(new state.Token('footnote_close', '', -1));
  }
  flow.push(new state.Token('footnote_block_close', '', -1));
}

/** After markdown-it-footnote: its tail rule, linear. */
export function linearFootnoteTail(md: MarkdownIt): void {
  md.core.ruler.at('footnote_tail', footnoteTail);
}
