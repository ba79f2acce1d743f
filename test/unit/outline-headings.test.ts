// The admin's Outline and its `[[Note#` suggestions read a note's headings line by line
// (shared/note/headings.ts), in the editor as on the server: a `#` line inside fenced code is
// code, however the fences nest.
import { describe, expect, it } from 'vitest';
import { headingsOf } from '../../shared/note/headings.ts';

const outline = (text: string) => {
  const lines = text.split('\n');
  return headingsOf({ count: lines.length, at: (n) => lines[n - 1]! }).map((h) => `${h.line}:${h.text}`);
};

describe('the outline leaves out what fenced code shows', () => {
  it('a ```` fence showing a ``` one holds all of it, up to its own closing run', () => {
    expect(outline('# One\n````md\n```\n# Not a heading\n```\n````\n# Two')).toEqual(['1:One', '7:Two']);
  });

  it('a ~~~ fence ends at ~~~, not at ```', () => {
    expect(outline('~~~\n```\n# Code\n~~~\n# After')).toEqual(['5:After']);
  });

  it('a closing run has nothing after it; a backtick run with backticks after it opens nothing', () => {
    expect(outline('```\n``` js\n# Code\n```\n# After')).toEqual(['5:After']);
    expect(outline('``` a ` b\n# Heading')).toEqual(['2:Heading']);
  });
});
