// A note's ```base blocks (site/plan/documents.ts baseBlocks) decide what its page's signature
// reads of the published notes: a base the page shows but the plan misses would stay as it
// was when other notes change. The renderer is the judge: the blocks found are the ones it
// asks `links.base` to draw.
import { describe, expect, it } from 'vitest';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { baseBlocks } from '../../site/plan/documents.ts';

function drawn(body: string): string[] {
  const asked: string[] = [];
  const links: RenderLinks = { note: () => null, attachment: () => null, tag: () => null, base: (source) => (asked.push(source), '<div class="base"></div>') };
  renderNoteHtml(body, 'T', links);
  return asked;
}

describe('the ```base blocks the plan reads are the ones the page draws', () => {
  it.each([
    ['at the top level', 'Intro\n\n```base\nfilters: a\n```\n'],
    ['in a callout', '> [!info] Reading\n> ```base\n> filters: b\n> ```\n'],
    ['in a list item, indented four spaces', '- Books\n    ```base\n    filters: c\n    ```\n'],
    ['named `Base`, with words after it', '~~~Base my view\nfilters: d\n~~~\n'],
    ['closed by a longer run', '```base\nfilters: e\n`````\n'],
    ['left open to the end of the note', 'Text\n\n```base\nfilters: f\n'],
    ['shown inside a ```` fence (code, not a base)', '````md\n```base\nfilters: g\n```\n````\n'],
    ['indented four spaces at the top level (code)', 'Text\n\n    ```base\n    filters: h\n    ```\n'],
    ['two of them', '```base\nfilters: i\n```\n\nand\n\n```base\nfilters: j\n```\n'],
  ])('%s', (_, body) => {
    expect(baseBlocks({ body } as never)).toEqual(drawn(body));
  });
});
