// The stylesheet's dark rules, written once under `@media (prefers-color-scheme: dark)`,
// made to follow the reader's choice too (site/client/theme.ts): with the system's dark they
// hold unless the reader chose light, and without it they hold when the reader chose dark.
// Screens only: a page printed from a dark screen comes out light, not pale text on paper.
// Our own stylesheets only: each dark block holds plain rules (`selectors { … }`).

const DARK_MEDIA = '@media (prefers-color-scheme: dark)';
// Through :where(), so each rule keeps the weight it was written with: a vault's publish.css
// or the operator's custom.css, read after ours, still overrides it as before.
const NOT_LIGHT = ':not([data-theme="light"])';
const CHOSE_DARK = '[data-theme="dark"]';

/** `css` with each dark block twice: for the system's dark unless light was chosen, and for a choice of dark. */
export function withThemeChoice(css: string): string {
  let out = '';
  let from = 0;
  for (let at = css.indexOf(DARK_MEDIA); at >= 0; at = css.indexOf(DARK_MEDIA, from)) {
    const open = css.indexOf('{', at);
    const close = matchingBrace(css, open);
    const rules = parseRules(css.slice(open + 1, close));
    out += css.slice(from, at);
    out += `@media screen and (prefers-color-scheme: dark) {\n${rules.map((r) => scoped(r, NOT_LIGHT)).join('\n')}\n}\n`;
    out += `@media screen {\n${rules.map((r) => scoped(r, CHOSE_DARK)).join('\n')}\n}\n`;
    from = close + 1;
  }
  return out + css.slice(from);
}

interface Rule {
  selectors: string[];
  body: string;
}

function matchingBrace(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    if (css[i] === '{') depth++;
    else if (css[i] === '}' && --depth === 0) return i;
  }
  throw new Error('theme-css: a dark block is not closed');
}

/** The plain rules of a block; comments dropped. Anything else (a nested at-rule) is refused. */
function parseRules(block: string): Rule[] {
  const rules: Rule[] = [];
  const text = block.replace(/\/\*[\s\S]*?\*\//g, '');
  for (let i = 0; i < text.length; ) {
    const open = text.indexOf('{', i);
    if (open < 0) {
      if (text.slice(i).trim()) throw new Error(`theme-css: unexpected text in a dark block: ${text.slice(i).trim()}`);
      break;
    }
    const head = text.slice(i, open).trim();
    const close = text.indexOf('}', open);
    if (head.startsWith('@') || text.slice(open + 1, close).includes('{')) throw new Error(`theme-css: a dark block holds more than plain rules: ${head}`);
    rules.push({ selectors: splitSelectors(head), body: text.slice(open + 1, close).replace(/\s+/g, ' ').trim() });
    i = close + 1;
  }
  return rules;
}

/** Top-level commas only: `:is(a, b)` stays one selector. */
function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === '(') depth++;
    else if (list[i] === ')') depth--;
    else if (list[i] === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out;
}

function scoped(rule: Rule, condition: string): string {
  const selectors = rule.selectors.map((s) => (s.startsWith(':root') ? `:root:where(${condition})${s.slice(':root'.length)}` : `:where(:root${condition}) ${s}`));
  return `${selectors.join(', ')} { ${rule.body} }`;
}
