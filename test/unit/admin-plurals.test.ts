// The admin's counts take the language's plural form through one mechanism (Intl.PluralRules):
// every sentence with a {count} has its forms in each table, and Arabic says 0, 1, 2, 3, 11, 100 apart.
import { afterEach, describe, expect, it } from 'vitest';
import { en, lang, pluralForm, t, type StringKey, type Text } from '../../admin/ui/src/i18n.ts';
import { ar } from '../../admin/ui/src/i18n-ar.ts';

const ARABIC_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const counted = (Object.keys(en) as StringKey[]).filter((key) => JSON.stringify(en[key]).includes('{count}'));

afterEach(() => lang.set('en'));

describe('every count the admin shows is said in its plural form', () => {
  it('finds the counted sentences (the check below is not vacuous)', () => {
    expect(counted).toEqual(expect.arrayContaining(['problemCount', 'inNotes', 'healthBadge', 'noteHealth', 'wordCount', 'searchCount', 'renameLinks', 'unsavedCount', 'pendingBadge', 'syncDirty']));
  });

  it.each(counted)('%s has plural forms in English (one, other) and in Arabic (zero to other)', (key) => {
    const english = en[key] as Text;
    expect(typeof english, `${key} in English`).toBe('object');
    expect(Object.keys(english).sort()).toEqual(['one', 'other']);
    const arabic = (ar as Partial<Record<StringKey, Text>>)[key];
    expect(typeof arabic, `${key} in Arabic`).toBe('object');
    expect(Object.keys(arabic as object).sort()).toEqual([...ARABIC_FORMS].sort());
  });

  it('Arabic counts take Intl.PluralRules forms: 0 zero, 1 one, 2 two, 3 few, 11 many, 100 other', () => {
    expect([0, 1, 2, 3, 11, 100].map((n) => pluralForm(n, 'ar'))).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
  });

  it('the Site health count reads in Arabic for 0, 1, 2, 3, 11 and 100', () => {
    lang.set('ar');
    const say = (problems: number, notes: number) => t('healthCount', { problems: t('problemCount', { count: problems }), notes: t('inNotes', { count: notes }) });
    expect([0, 1, 2, 3, 11, 100].map((n) => t('problemCount', { count: n }))).toEqual(['لا مشكلات', 'مشكلة واحدة', 'مشكلتان', '3 مشكلات', '11 مشكلة', '100 مشكلة']);
    expect(say(3, 2)).toBe('3 مشكلات في ملاحظتين');
    expect(say(11, 3)).toBe('11 مشكلة في 3 ملاحظات');
    expect([0, 1, 2, 3, 11, 100].map((n) => t('unsavedCount', { count: n }))).toEqual([
      'لا تغييرات غير محفوظة',
      'تغيير واحد غير محفوظ',
      'تغييران غير محفوظين',
      '3 تغييرات غير محفوظة',
      '11 تغييرًا غير محفوظ',
      '100 تغيير غير محفوظ',
    ]);
  });

  it('English says one and the rest', () => {
    expect([0, 1, 2, 11].map((n) => t('problemCount', { count: n }))).toEqual(['0 problems', '1 problem', '2 problems', '11 problems']);
    expect(t('healthCount', { problems: t('problemCount', { count: 3 }), notes: t('inNotes', { count: 1 }) })).toBe('3 problems in 1 note');
  });
});
