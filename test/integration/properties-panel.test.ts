// The properties panel (setting publishing.properties: off / shown), read from the real
// server in both layouts: the note's frontmatter values but the keys that steer publishing
// or that the page already shows; every value escaped text, lists as lists, `[[links]]`
// leading to published notes only (else plain text, a draft's title never shown); nothing
// at all with the setting off, its default.
import { describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { GARDEN_FILES } from '../fixtures/garden/vault.ts';

const RICH = `---
publish: true
title: Rich note
tags: [alpha]
aliases: [Richie]
cssclasses: [wide]
permalink: /rich
description: Meta only.
date: 2025-03-04
status: growing
rating: 4
reviewed: true
planted: 2024-05-06
related: "[[Install]]"
sources:
  - "[[API]]"
  - "[[Hidden]]"
  - "[[Nowhere]]"
  - https://example.org/paper
  - "javascript:alert(1)"
hostile: "<script>alert(1)</script><b>bold</b>"
"<img src=x onerror=alert(1)>": a hostile key
mixed: "See [[Configure|the setup]] and [[Install#Steps]], then rest"
cited: "As [[API|the API [v2]]] says"
empty:
---

Body of the rich note.
`;
const ARABIC = `---
publish: true
title: ملاحظة عربية
الحالة: نامية
المصادر: ["[[Install]]", "كتاب"]
---

نص الملاحظة.
`;

const settings = { siteName: 'Garden', homeNote: 'Home', publishing: { properties: 'shown' } };
const files = { ...GARDEN_FILES, 'Props/Rich.md': RICH, 'Props/عربي.md': ARABIC };
const layouts = {
  garden: blogForFile({ fixture: false, files, env: { PUBLIC_LAYOUT: 'default' }, settings }),
  blog: blogForFile({ fixture: false, files, env: { PUBLIC_LAYOUT: 'blog' }, settings }),
};

const panelOf = (html: string) => /<dl class="s-properties">.*?<\/dl>/s.exec(html)?.[0] ?? '';
/** Each row as `key=value` (the value's inner HTML). */
const rows = (html: string) => [...panelOf(html).matchAll(/<div class="s-property"><dt dir="auto">(.*?)<\/dt><dd dir="auto">(.*?)<\/dd><\/div>/gs)].map((m) => `${m[1]}=${m[2]}`);

for (const [name, server] of Object.entries(layouts)) {
  describe(`the properties panel, ${name} layout`, () => {
    it("lists the note's own properties in order, each value as text, a date in the site's words", async () => {
      const html = (await server.page('/rich')).text;
      expect(rows(html).slice(0, 4)).toEqual(['status=growing', 'rating=4', 'reviewed=true', 'planted=May 6, 2024']);
      // Under the title and chips, before the body.
      expect(html).toMatch(/<p class="s-chips">.*?<\/p>\s*<dl class="s-properties">.*?<\/dl>\s*<\/header>/s);
    });

    it('leaves out the keys that steer publishing or that the page already shows, and empty values', async () => {
      const keys = [...panelOf((await server.page('/rich')).text).matchAll(/<dt dir="auto">(.*?)<\/dt>/g)].map((m) => m[1]);
      expect(keys).toEqual(['status', 'rating', 'reviewed', 'planted', 'related', 'sources', 'hostile', '&lt;img src=x onerror=alert(1)&gt;', 'mixed', 'cited']);
    });

    it('links a [[note]] as the body would, to published notes only; a draft or a missing note is plain text', async () => {
      const html = (await server.page('/rich')).text;
      const row = (key: string) => rows(html).find((r) => r.startsWith(`${key}=`));
      expect(row('related')).toBe('related=<a class="s-post-link" href="/Guide/Install">Install</a>');
      expect(row('sources')).toBe(
        'sources=<ul><li><a class="s-post-link" href="/Reference/API">API</a></li><li>Hidden</li><li>Nowhere</li>' +
          '<li><a href="https://example.org/paper" rel="nofollow noopener">https://example.org/paper</a></li><li>javascript:alert(1)</li></ul>',
      );
      expect(row('mixed')).toBe('mixed=See <a class="s-post-link" href="/Guide/Advanced/Configure">the setup</a> and <a class="s-post-link" href="/Guide/Install#steps">Install &gt; Steps</a>, then rest');
      // A display text may hold brackets, as in the body (shared/wikilinks.ts).
      expect(row('cited')).toBe('cited=As <a class="s-post-link" href="/Reference/API">the API [v2]</a> says');
      expect(html).not.toContain('Hidden Draft Title');
    });

    it('shows hostile markup in a value or a key as text', async () => {
      const html = (await server.page('/rich')).text;
      expect(rows(html)).toContain('hostile=&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;');
      expect(panelOf(html)).not.toMatch(/<script|<b>|<img/);
    });

    it("follows each value's own direction, in a right-to-left note too", async () => {
      const html = (await server.page('/Props/عربي')).text;
      expect(html).toMatch(/<article class="s-article" lang="ar" dir="rtl">/);
      expect(rows(html)).toEqual(['الحالة=نامية', 'المصادر=<ul><li><a class="s-post-link" href="/Guide/Install">Install</a></li><li>كتاب</li></ul>']);
    });
  });
}

describe('the properties panel is off by default, and when set off', () => {
  it('shows nothing once the setting is off', async () => {
    const server = layouts.garden;
    expect(panelOf((await server.page('/rich')).text)).not.toBe('');
    // The new site name is the sign that the new settings are in; the panel is gone with it.
    await server.writeSettings({ siteName: 'Garden Off', homeNote: 'Home', publishing: { properties: 'off' } });
    const off = await server.waitForPage('/rich', (p) => p.text.includes('Garden Off'));
    expect(off.text).toContain('Body of the rich note.');
    expect(off.text).not.toContain('s-properties');
    expect(off.text).not.toContain('growing');
    await server.writeSettings({ siteName: 'Garden Default', homeNote: 'Home' });
    const unset = await server.waitForPage('/rich', (p) => p.text.includes('Garden Default'));
    expect(unset.text).not.toContain('s-properties');
  });

  it('is switched on from the admin API, which refuses any other value naming the field', async () => {
    const server = layouts.garden;
    const refused = await server.admin('PATCH', '/api/settings', { publishing: { properties: 'sometimes' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: 'publishing.properties' });
    expect((await server.admin('PATCH', '/api/settings', { publishing: { properties: 'shown' } })).status).toBe(200);
    const shown = await server.waitForPage('/rich', (p) => p.text.includes('class="s-properties"'));
    expect(rows(shown.text)[0]).toBe('status=growing');
  });
});
