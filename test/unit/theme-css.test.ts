// The stylesheet's dark rules follow the reader's choice as well as the system's scheme,
// each with the weight it was written with (a vault's publish.css still overrides it).
import { describe, expect, it } from 'vitest';
import { withThemeChoice } from '../../site/render/theme-css.ts';
import { buildAssets } from '../../site/render/assets.ts';

describe('dark rules and the reader\'s choice', () => {
  it('writes each dark block for the system unless light was chosen, and for a choice of dark, on screens only', () => {
    const css = ':root { --bg: white; }\n@media (prefers-color-scheme: dark) {\n  /* night */\n  :root { --bg: black; }\n  .callout, :is(a, b) > mark { color: gold; }\n}\np { margin: 0; }\n';
    expect(withThemeChoice(css)).toBe(
      ':root { --bg: white; }\n' +
        '@media screen and (prefers-color-scheme: dark) {\n' +
        ':root:where(:not([data-theme="light"])) { --bg: black; }\n' +
        ':where(:root:not([data-theme="light"])) .callout, :where(:root:not([data-theme="light"])) :is(a, b) > mark { color: gold; }\n' +
        '}\n' +
        '@media screen {\n' +
        ':root:where([data-theme="dark"]) { --bg: black; }\n' +
        ':where(:root[data-theme="dark"]) .callout, :where(:root[data-theme="dark"]) :is(a, b) > mark { color: gold; }\n' +
        '}\n' +
        '\np { margin: 0; }\n',
    );
  });

  it('refuses a dark block it cannot rewrite rather than leave it to the system alone', () => {
    expect(() => withThemeChoice('@media (prefers-color-scheme: dark) { @supports (x: y) { a { b: c } } }')).toThrow(/more than plain rules/);
  });

  it('leaves no dark rule of the site\'s stylesheet to the system alone', async () => {
    const { assets, css } = await buildAssets();
    const sheet = String(assets.find((a) => a.address === css)!.content);
    expect(sheet).not.toContain('@media (prefers-color-scheme: dark)');
    const blocks = sheet.split('@media screen and (prefers-color-scheme: dark) {').slice(1);
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const block of blocks) {
      const inside = block.slice(0, block.indexOf('\n}\n'));
      // Every rule inside is scoped to "not chosen light", and the same rule follows for "chose dark".
      for (const rule of inside.split('\n').filter(Boolean)) {
        expect(rule).toMatch(/^(:root:where\(:not\(\[data-theme="light"\]\)\)|:where\(:root:not\(\[data-theme="light"\]\)\) )/);
        expect(sheet).toContain(rule.replaceAll(':not([data-theme="light"])', '[data-theme="dark"]'));
      }
    }
  });
});
