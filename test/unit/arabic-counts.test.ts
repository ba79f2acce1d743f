// A count in the site's Arabic takes the form Arabic gives it (CLDR's categories): one and two
// are words of their own, 3–10 and 103–110 the plural, 11–99 and 111–199 the singular
// accusative, 100–102 and 0 the singular; in English one word, two words.
import { describe, expect, it } from 'vitest';
import { stringsFor } from '../../site/plan/i18n.ts';

const AR = stringsFor('ar');
const EN = stringsFor('en');

describe('counts in Arabic', () => {
  it.each([
    [1, 'كلمة واحدة', 'تعليق واحد', 'ملاحظة منشورة واحدة'],
    [2, 'كلمتان', 'تعليقان', 'ملاحظتان منشورتان'],
    [3, '3 كلمات', '3 تعليقات', '3 ملاحظات منشورة'],
    [10, '10 كلمات', '10 تعليقات', '10 ملاحظات منشورة'],
    [11, '11 كلمة', '11 تعليقًا', '11 ملاحظة منشورة'],
    [99, '99 كلمة', '99 تعليقًا', '99 ملاحظة منشورة'],
    [100, '100 كلمة', '100 تعليق', '100 ملاحظة منشورة'],
    [103, '103 كلمات', '103 تعليقات', '103 ملاحظات منشورة'],
    [111, '111 كلمة', '111 تعليقًا', '111 ملاحظة منشورة'],
    [1000, '1000 كلمة', '1000 تعليق', '1000 ملاحظة منشورة'],
  ])('%i: words, comments and published notes', (count, words, comments, notes) => {
    expect(AR.words(String(count), count)).toBe(words);
    expect(AR.commentCount(String(count), count)).toBe(comments);
    expect(AR.publishedNotes(String(count), count)).toBe(notes);
  });

  it('the digits are the locale’s, the form the count’s', () => {
    expect(AR.words('٣', 3)).toBe('٣ كلمات');
    expect(AR.minutes('١٢', 12)).toBe('١٢ دقيقة');
    expect(AR.likes('٥', 5)).toBe('٥ إعجابات');
    expect(AR.likes('٢٠', 20)).toBe('٢٠ إعجابًا');
    expect(AR.reposts('٢', 2)).toBe('إعادتا نشر');
    expect(AR.baseDays('١٥', 15)).toBe('١٥ يومًا');
  });

  it('in English, one word and two words', () => {
    expect(EN.words('1', 1)).toBe('1 word');
    expect(EN.words('2', 2)).toBe('2 words');
    expect(EN.words('1,200', 1200)).toBe('1,200 words');
  });
});
