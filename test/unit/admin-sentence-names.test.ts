// A vault name inside one of the admin's sentences keeps its own direction: t() isolates its
// name placeholders (FSI … PDI) in every language, once, and leaves counts and other words as
// they are, so "(Draft) Plan" or an Arabic title reads as written in the other direction.
import { afterEach, describe, expect, it } from 'vitest';
import { lang, t } from '../../admin/ui/src/i18n.ts';
import { isolated, isolatedLinks, isolatedPath, sentenceParts, sentenceRuns } from '../../admin/ui/src/isolate.ts';

afterEach(() => lang.set('en'));

describe('a vault name in a sentence of the admin', () => {
  it('is isolated in English and in Arabic', () => {
    expect(t('confirmDelete', { name: '(Draft) Plan' })).toBe('Move “\u2068(Draft) Plan\u2069” to the trash?');
    lang.set('ar');
    expect(t('confirmDelete', { name: '(Draft) Plan' })).toContain('\u2068(Draft) Plan\u2069');
    // A folder or a path is left to right whatever its letters (a left-to-right isolate, LRI … PDI).
    expect(t('moveInto', { name: 'Plan.md', folder: 'Archive' })).toContain('\u2066Archive\u2069');
    expect(t('cameFrom', { path: 'ملاحظات/Note.md' })).toContain('\u2066ملاحظات/Note.md\u2069');
  });

  it("reads a path's isolate as a path: Sentence draws it as a VaultPath, left to right", () => {
    expect(sentenceRuns(`من ${isolatedPath('ملاحظات/Note.md')} و ${isolated('Plan')}`)).toEqual([
      { text: 'من ', name: false },
      { text: 'ملاحظات/Note.md', name: true, path: true },
      { text: ' و ', name: false },
      { text: 'Plan', name: true },
    ]);
    expect(sentenceParts(`(${isolatedPath('A/B.md')}),`)).toEqual([{ before: '(', name: 'A/B.md', after: '),', path: true }]);
  });

  it('is isolated once, and a count or another word is left as it is', () => {
    expect(t('restoredTo', { path: isolated('Notes/A.md') })).toBe('Restored to \u2068Notes/A.md\u2069.');
    expect(t('unsavedCount', { count: 3 })).toBe('3 unsaved changes');
    expect(t('deletedAt', { time: 'today' })).not.toContain('\u2068');
  });

  it("is isolated in a backlink's line of Markdown: each link, and nothing else", () => {
    expect(isolatedLinks('مرحبا [[What is Git?]] و [(Draft) Plan](Plan.md).')).toBe('مرحبا \u2068[[What is Git?]]\u2069 و \u2068[(Draft) Plan](Plan.md)\u2069.');
    expect(isolatedLinks('No link here (really)?')).toBe('No link here (really)?');
    // Read as the note model reads links: a display text's brackets and a picture in a link's text stay inside.
    expect(isolatedLinks('و [[Paper|Smith [2020]]] و [![p](i.png)](N.md)')).toBe('و \u2068[[Paper|Smith [2020]]]\u2069 و \u2068[![p](i.png)](N.md)\u2069');
  });

  it('is one run of its own when the sentence is drawn, marks and all taken out, whatever the name holds', () => {
    const sentence = t('restoredTo', { path: isolated('Notes/A.md') });
    expect(sentenceRuns(sentence)).toEqual([
      { text: 'Restored to ', name: false },
      { text: 'Notes/A.md', name: true },
      { text: '.', name: false },
    ]);
    // A name holding marks of its own (a hostile file name) stays one run up to its own end.
    expect(sentenceRuns(`a ${isolated('x\u2068y\u2069z')} b`)).toEqual([
      { text: 'a ', name: false },
      { text: 'x\u2068y\u2069z', name: true },
      { text: ' b', name: false },
    ]);
    expect(sentenceRuns(`a ${isolated('lone \u2068 mark')} b`)).toEqual([
      { text: 'a ', name: false },
      { text: 'lone \u2068 mark\u2069 b', name: true },
    ]);
    expect(sentenceRuns('No names here.')).toEqual([{ text: 'No names here.', name: false }]);
    expect(sentenceRuns('')).toEqual([]);
  });

  it('is drawn with the marks written against it, so a line never ends on its opening bracket', () => {
    expect(sentenceParts(t('warn_unpublished_link', { link: isolated('A'), target: isolated('Notes/A.md') }))).toEqual([
      'Links to ',
      { before: '“', name: 'A', after: '”' },
      ' ',
      { before: '(', name: 'Notes/A.md', after: '),' },
      ' which is not published.',
    ]);
    expect(sentenceParts(`${isolated('A')}${isolated('B')}!`)).toEqual([
      { before: '', name: 'A', after: '' },
      { before: '', name: 'B', after: '!' },
    ]);
  });
});
