// ttrpg-convert-cli writes every cross-link from the vault's root (`[Azurite](/compendium/items/azurite.md)`,
// thousands in a 5e vault, many in tables and embeds), and Obsidian opens them: the site left each as
// a raw `.md` address, a 404.
import { describe, expect, it } from 'vitest';
import { chooseLinkpath } from '../../shared/model/links.ts';
import { isVaultHref } from '../../shared/link-address.ts';
import { linkKey } from '../../shared/wikilinks.ts';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';

describe('a Markdown link from the vault\'s root', () => {
  it('is a vault link when it names a Markdown note; any other `/…` is the site\'s own path', () => {
    expect(isVaultHref('/compendium/items/azurite.md')).toBe(true);
    expect(isVaultHref('/compendium/items/azurite.md#Uses')).toBe(true);
    expect(isVaultHref('/Notes/Plan.markdown')).toBe(true);
    for (const site of ['/topic/x', '/about', '/', '//cdn.example/x.md', '/feed.xml']) expect(isVaultHref(site), site).toBe(false);
  });

  it('resolves from the root only, never by name elsewhere', () => {
    const files = ['compendium/items/azurite.md', 'other/azurite.md'];
    const store = { byPath: (k: string) => files.find((f) => linkKey(f) === k), byName: (k: string) => (k === linkKey('azurite.md') ? files : undefined) };
    expect(chooseLinkpath('/compendium/items/azurite.md', 'compendium/tables', store)).toBe('compendium/items/azurite.md');
    expect(chooseLinkpath('/items/azurite.md', 'compendium', store)).toBeNull();
  });

  it('leads to the note\'s page (its heading too), or reads as an unresolved link', () => {
    const links: RenderLinks = {
      note: (t) => (t === '/compendium/items/azurite.md' ? { href: '/compendium/items/azurite', title: 'Azurite', headings: [{ level: 2, text: 'Uses', id: 'uses' }] } : null),
      attachment: () => null,
      tag: (t) => `/topic/${t}`,
    };
    expect(renderNoteHtml('[Azurite](/compendium/items/azurite.md) [h](/compendium/items/azurite.md#Uses) [Gone](/gone.md) [site](/topic/x)', 'T', links)).toBe(
      '<p><a href="/compendium/items/azurite" class="internal-link">Azurite</a> <a href="/compendium/items/azurite#uses" class="internal-link">h</a> <span class="s-wikilink s-unresolved">Gone</span> <a href="/topic/x">site</a></p>\n',
    );
  });
});
