// The home page's hero takes its banner as a CSS url("…") in a style attribute
// (site/plan/plan-lists.ts). A banner arriving with the vault's settings is input: a quote
// in it once ended the string and covered the page (`");position:fixed;inset:0`).
import { describe, expect, it } from 'vitest';
import { cssString } from '../../site/plan/plan-lists.ts';

describe('cssString', () => {
  it('escapes what would end a double-quoted CSS string, and leaves the rest', () => {
    expect(cssString('https://e.com/x");position:fixed;inset:0;content:("')).toBe('https://e.com/x\\22 );position:fixed;inset:0;content:(\\22 ');
    expect(cssString('a\\b\nc')).toBe('a\\5c b\\a c');
    expect(cssString('/_s/banner.png?v=1&w=2')).toBe('/_s/banner.png?v=1&w=2');
  });
});
