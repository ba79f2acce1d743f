// A vault name inside one of the admin's sentences keeps its own direction: t() isolates its
// name placeholders (FSI … PDI) in every language, once, and leaves counts and other words as
// they are, so "(Draft) Plan" or an Arabic title reads as written in the other direction.
import { afterEach, describe, expect, it } from 'vitest';
import { lang, t } from '../../admin/ui/src/i18n.ts';
import { isolated, isolatedLinks } from '../../admin/ui/src/isolate.ts';

afterEach(() => lang.set('en'));

describe('a vault name in a sentence of the admin', () => {
  it('is isolated in English and in Arabic', () => {
    expect(t('confirmDelete', { name: '(Draft) Plan' })).toBe('Move “\u2068(Draft) Plan\u2069” to the trash?');
    lang.set('ar');
    expect(t('confirmDelete', { name: '(Draft) Plan' })).toContain('\u2068(Draft) Plan\u2069');
    expect(t('moveInto', { name: 'Plan.md', folder: 'Archive' })).toContain('\u2068Archive\u2069');
  });

  it('is isolated once, and a count or another word is left as it is', () => {
    expect(t('restoredTo', { path: isolated('Notes/A.md') })).toBe('Restored to \u2068Notes/A.md\u2069.');
    expect(t('unsavedCount', { count: 3 })).toBe('3 unsaved changes');
    expect(t('deletedAt', { time: 'today' })).not.toContain('\u2068');
  });

  it("is isolated in a backlink's line of Markdown: each link, and nothing else", () => {
    expect(isolatedLinks('مرحبا [[What is Git?]] و [(Draft) Plan](Plan.md).')).toBe('مرحبا \u2068[[What is Git?]]\u2069 و \u2068[(Draft) Plan](Plan.md)\u2069.');
    expect(isolatedLinks('No link here (really)?')).toBe('No link here (really)?');
  });
});
