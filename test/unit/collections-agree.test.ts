// One collections model: the admin's collections panel and the public site
// read the same declarations from the same vault: titles (a label beats the title),
// marks, descriptions, folders, hidden ones, arranged order, duplicate slugs and the
// cap of twelve all agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeclaredCollections } from '../../admin/ui/server/collections.ts';
import { modelSettings } from '../../shared/model/model-settings.ts';
import { deriveSiteModel } from '../../shared/model/site-model.ts';
import { VaultStore } from '../../shared/model/vault-store.ts';
import { defaultSettings, siteSettingsOf } from '../../shared/settings.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let vault: string;
const page = (yaml: string) => `---\n${yaml}\n---\nA tag page.\n`;

beforeAll(async () => {
  vault = await tempDir('vs-collections-');
  const files: Record<string, string> = {
    'Topics/travel.md': page('collection: true\ntitle: Travel title\nlabel: Journeys\nicon: ✈\ndescription: Away from home\norder: 2'),
    'Topics/cooking.md': page('collection: true\nlabels:\n  en: Kitchen\n  ar: المطبخ\norder: 1\nfolder: "[[Recipes]]"'),
    'Topics/secret.md': page('collection: true\nhidden: true'),
    'Elsewhere/Named.md': page('collection: true\ntag: "#named"\nslug: Named Things\ntitle: Named'),
    'Elsewhere/Same slug.md': page('collection: true\ntag: other\nslug: named things'),
    // A tag page for `shadow` that declares nothing comes first; the later declaration is not read.
    'A/shadow.md': page('collection: false\ntag: shadow'),
    'B/shadow.md': page('collection: true\ntag: shadow'),
    'Topics/plain.md': page('title: Just a topic'),
    'Topics/zzz.md': page('collection: true'),
    'Posts/One.md': '---\npublish: true\ntags: [travel, cooking]\n---\nBody.\n',
  };
  for (let i = 0; i < 8; i++) files[`Topics/extra${String(i).padStart(2, '0')}.md`] = page(`collection: true\norder: ${10 + i}`);
  await writeFiles(vault, files);
});
afterAll(cleanupTempDirs);

describe('the admin panel and the public model read the same collections', () => {
  it('agree field by field, in order, under the cap', async () => {
    const settings = defaultSettings();
    settings.collections.enabled = true;
    const env = { siteName: null, siteTagline: null, homeNote: null, siteFooter: null, siteLang: null, publicLayout: null };
    const model = modelSettings(siteSettingsOf(settings, env), { excludeTags: [] });
    const store = new VaultStore({ vaultDir: vault, dataDir: null, useGit: false });
    await store.loadAll();
    const publicSide = deriveSiteModel(store.records.values(), model).collections.map((c) => ({
      tag: c.tag,
      slug: c.slug,
      title: c.title,
      icon: c.icon,
      description: c.description,
      hidden: c.hidden,
      folder: c.folder,
      path: c.source.path,
    }));
    const adminSide = await createDeclaredCollections(vault, [], async () => model.language)();

    expect(adminSide).toEqual(publicSide);
    expect(adminSide).toHaveLength(12);
    expect(adminSide.slice(0, 3).map((c) => [c.tag, c.title])).toEqual([
      ['cooking', 'Kitchen'],
      ['travel', 'Journeys'],
      ['extra00', 'extra00'],
    ]);
    expect(adminSide.find((c) => c.tag === 'cooking')!.folder).toBe('Recipes');
    const tags = adminSide.map((c) => c.tag);
    expect(tags.slice(10)).toEqual(['named', 'secret']);
    expect(adminSide.find((c) => c.tag === 'secret')!.hidden).toBe(true);
    // Same slug as `named`, not read; no declaration behind the shadowing tag page; over the cap.
    for (const tag of ['other', 'shadow', 'zzz']) expect(tags).not.toContain(tag);
  });
});
