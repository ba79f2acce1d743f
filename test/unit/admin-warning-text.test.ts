// Site health says every warning in the interface's language from its kind and fields: each
// kind the API names (and each case of it) has a sentence in English and in Arabic.
import { afterEach, describe, expect, it } from 'vitest';
import { HEALTH_KIND } from '../../shared/model/build-warnings.ts';
import { en, lang } from '../../admin/ui/src/i18n.ts';
import { ar } from '../../admin/ui/src/i18n-ar.ts';
import { warningSentence } from '../../admin/ui/src/health/warning-text.ts';

const KINDS = [...Object.values(HEALTH_KIND), 'nested_repository'];
const VARIANTS: Record<string, string[]> = { reserved_address: ['not_a_file'], address_clash: ['attachment'], left_out_of_snapshot: ['site_asset'], text_too_long: ['title', 'label', 'description', 'icon', 'banner'] };
const keys = KINDS.flatMap((kind) => [`warn_${kind}`, ...(VARIANTS[kind] ?? []).map((v) => `warn_${kind}_${v}`)]);
/** The sentence without the names it holds (each isolated, FSI … PDI). */
const wording = (s: string) => s.replace(/[\u2066\u2068][^\u2069]*\u2069/g, '');

afterEach(() => lang.set('en'));

describe('a warning is said from its kind and fields', () => {
  it.each(keys)('%s has a sentence in English and in Arabic', (key) => {
    expect(Object.hasOwn(en, key)).toBe(true);
    expect(Object.hasOwn(ar, key)).toBe(true);
  });

  it('the Arabic sentence holds the names and figures, and no English beside them', () => {
    lang.set('ar');
    const said = warningSentence({ path: 'Posts/Garden.md', kind: 'unpublished_link', message: 'links to "Seedlings" (Seedlings.md), which is not published', target: 'Seedlings.md', link: 'Seedlings' });
    // The path is left to right whatever its letters (LRI … PDI); the link as written (FSI … PDI).
    expect(said).toBe('تربط إلى «\u2068Seedlings\u2069» (\u2066Seedlings.md\u2069)، وهي غير منشورة.');
    const tags = warningSentence({ path: 'T.md', kind: 'too_many_tags', message: 'has 105 tags; only the first 100 are topics on the site', count: 105, max: 100 });
    expect(tags).toBe('فيها 105 وسوم؛ أول 100 وسمًا فقط مواضيع في الموقع.');
    expect(warningSentence({ path: 'T.md', kind: 'missing_link', message: 'x', more: 11 })).toBe('و11 تحذيرًا آخر.');
    const title = warningSentence({ path: 'T.md', kind: 'text_too_long', variant: 'title', message: 'its title is longer than pages show (1000000 characters; at most 250): it shows cut', value: 'title', count: 1_000_000, max: 250 });
    expect(title).toBe('تعرض الصفحات عنوانها مقطوعًا بعد 250 من الحروف.');
    for (const kind of KINDS) {
      const text = warningSentence({ path: 'A.md', kind, message: 'an English sentence', target: 'B.md', link: 'B', address: '/b', value: 'a/../b', count: 3, max: 100 });
      // `git` is the program's name in either language.
      expect(wording(text).replace(/\bgit\b/g, ''), kind).not.toMatch(/[A-Za-z]{2,}/);
    }
  });

  it('a kind this admin does not know keeps the server’s sentence', () => {
    lang.set('ar');
    expect(warningSentence({ path: 'A.md', kind: 'a_new_kind', message: 'something new went wrong' })).toBe('something new went wrong');
  });
});
