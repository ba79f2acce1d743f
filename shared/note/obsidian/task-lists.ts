// Task lists: `- [ ]` and `- [x]` become disabled checkboxes (Obsidian's markup:
// `task-list-item`, `data-task`, `is-checked`), each labelled by its item's first line
// (a <label> around both, so a screen reader names the box by its task). Any other status character (`[?]`,
// `[/]`, `[-]`) is kept in `data-task` and shown checked, as Obsidian shows it.
// Written here rather than taken from @hedgedoc/markdown-it-task-lists: that package
// imports `markdown-it/lib/token.js`, which markdown-it 14's export map does not
// provide, so it cannot be loaded by Node, tsx or esbuild.
import type MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';

const BOX = /^\[([^\]\n])\](?:[ \t]+|$)/;

function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  // The last opening token seen at each level: an item's list is the one a level up (kept as
  // the tokens pass: looking back from each item of a 10,000-task list took 1.4 s).
  const openAt: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.nesting === 1) openAt[tokens[i]!.level] = tokens[i]!;
    if (i < 2) continue;
    const inline = tokens[i]!;
    if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open' || tokens[i - 2]!.type !== 'list_item_open') continue;
    const first = inline.children?.[0];
    const m = first?.type === 'text' ? BOX.exec(first.content) : null;
    if (!m) continue;
    const status = m[1]!;
    const checked = status !== ' ';
    first!.content = first!.content.slice(m[0].length);
    inline.content = inline.content.replace(BOX, '');
    const box = new state.Token('task_checkbox', 'input', 0);
    box.meta = { checked };
    inline.children!.unshift(box);
    inline.children!.push(new state.Token('task_label_close', 'label', -1));
    const item = tokens[i - 2]!;
    item.attrJoin('class', `task-list-item${checked ? ' is-checked' : ''}`);
    item.attrSet('data-task', status);
    const list = item.level > 0 ? (openAt[item.level - 1] ?? null) : null;
    if (list && !(list.attrGet('class') ?? '').includes('contains-task-list')) list.attrJoin('class', 'contains-task-list');
  }
}

export function taskListsPlugin(md: MarkdownIt): void {
  md.core.ruler.push('obsidian_task_lists', taskLists);
  md.renderer.rules.task_checkbox = (tokens, idx) =>
    `<label class="task-list-label"><input type="checkbox" class="task-list-item-checkbox" disabled${tokens[idx]!.meta.checked ? ' checked' : ''}> `;
  md.renderer.rules.task_label_close = () => '</label>';
}
