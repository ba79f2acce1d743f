// spec D.1, CONTRACT §10: the one formatter of the dates and counts visitors read.
import { describe, expect, it } from 'vitest';
import { dateLocales, formatters } from '../../site/plan/i18n.ts';

const DAY = Date.UTC(2026, 0, 10);

describe('dates and counts a visitor reads', () => {
  it('BLOG_LOCALE ar gives Arabic-Indic digits, ar-u-nu-latn Latin ones; month names from the site language', () => {
    expect(formatters('ar', 'ar').date(DAY)).toBe('١٠ يناير ٢٠٢٦');
    expect(formatters('ar', 'ar-u-nu-latn').date(DAY)).toBe('10 يناير 2026');
    expect(formatters('en', 'ar-u-nu-latn').date(DAY)).toBe('January 10, 2026');
    expect(formatters('en', 'ar').number(1234)).toBe('١٬٢٣٤');
    expect(formatters('en', 'ar-u-nu-latn').number(1234)).toBe('1,234');
    expect(formatters('en', 'ar').year(2026)).toBe('٢٠٢٦');
  });

  it('the calendar setting: Gregorian, Hijri (Umm al-Qura) or both', () => {
    expect(formatters('en', 'en', 'gregorian').date(DAY)).toBe('January 10, 2026');
    expect(formatters('en', 'en', 'hijri').date(DAY)).toBe('Rajab 21, 1447 AH');
    expect(formatters('ar', 'ar', 'hijri').date(DAY)).toBe('٢١ رجب ١٤٤٧ هـ');
    expect(formatters('ar', 'ar-u-nu-latn', 'both').date(DAY)).toBe('10 يناير 2026 / 21 رجب 1447 هـ');
  });

  it('a site language this ICU has no data for writes its dates in English, in the calendar and digits asked for (a reviewer’s find)', () => {
    // Intl fell back to its default locale and dropped the calendar: Hijri dates came out Gregorian.
    expect(formatters('dv', 'en', 'hijri').date(DAY)).toBe('Rajab 21, 1447 AH');
    expect(formatters('dv', 'en', 'both').date(DAY)).toBe('January 10, 2026 / Rajab 21, 1447 AH');
    expect(formatters('dv', 'ar', 'hijri').date(DAY)).toMatch(/^Rajab [٠-٩]+, [٠-٩]+ AH$/);
    expect(dateLocales('dv', 'en', 'hijri')).toEqual(['en-u-ca-islamic-umalqura-nu-latn']);
  });

  it('a date is formatted once per UTC day shown: every time of a day gives that day, the days around it their own', () => {
    for (const calendar of ['gregorian', 'hijri', 'both'] as const) {
      const fmt = formatters('en', 'en', calendar);
      const direct = (ms: number) => {
        const f = (ca: string) => new Intl.DateTimeFormat(`en-u-ca-${ca}-nu-latn`, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(ms));
        return calendar === 'gregorian' ? f('gregory') : calendar === 'hijri' ? f('islamic-umalqura') : `${f('gregory')} / ${f('islamic-umalqura')}`;
      };
      for (const ms of [DAY - 1, DAY, DAY + 1, DAY + 86_399_999, DAY + 86_400_000, Date.UTC(1969, 11, 31, 23, 59), Date.UTC(1960, 5, 1, 12)]) {
        expect(fmt.date(ms), `${calendar} ${new Date(ms).toISOString()}`).toBe(direct(ms));
      }
    }
  });
});
