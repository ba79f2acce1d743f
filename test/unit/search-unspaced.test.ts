// Chinese and Japanese notes, found as Obsidian finds them: a word wherever it stands in a
// clause written without spaces (a real vault's `个人知识库搭建` was one token, and `知识库`
// found nothing), Japanese voicing kept apart, and each character counted as a word.
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { indexOptions, tokenize, tokenizeQuery, type SearchDoc } from '../../shared/search/index-format.ts';
import { QUERY_OPTIONS, queryWords } from '../../site/client/search/engine.ts';
import { matchSpans } from '../../site/client/search/passage.ts';
import { countWords } from '../../shared/note/excerpt.ts';
import { foldText } from '../../shared/text-fold.ts';

const NOTES: SearchDoc[] = [
  { title: 'Obsidian知识图谱', headings: '', tags: '笔记', text: '个人知识库搭建，整理完善想法。' },
  { title: '読書メモ', headings: '', tags: '', text: '日本語のタグを付ける。' },
  { title: 'Apart', headings: '', tags: '', text: '知识和库是两个词。' },
  { title: 'Garden', headings: '', tags: '', text: 'A garden of notes, café and crème.' },
  { title: 'Kana', headings: '', tags: '', text: 'タクシーに乗る。' },
];

function search(query: string): string[] {
  const engine = new MiniSearch<SearchDoc & { id: number }>(indexOptions);
  engine.addAll(NOTES.map((doc, id) => ({ ...doc, id })));
  return engine.search(query, QUERY_OPTIONS).map((r) => NOTES[r.id]!.title);
}

describe('text without spaces between words', () => {
  it('is indexed as characters and pairs of characters; a query reads its pairs, a lone character as itself', () => {
    expect(tokenize('个人知识库')).toEqual(['个', '人', '知', '识', '库', '个人', '人知', '知识', '识库']);
    expect(tokenizeQuery('知识库')).toEqual(['知识', '识库']);
    expect(tokenizeQuery('库')).toEqual(['库']);
    // Letters of other scripts in the same run stay one word.
    expect(tokenize('Obsidian知识')).toEqual(['Obsidian', '知', '识', '知识']);
    expect(queryWords('obsidian 知识库').map((w) => w.term)).toEqual(['obsidian', '知识', '识库']);
    // Spaced scripts are split as before.
    expect(tokenize('garden path, café')).toEqual(['garden', 'path', 'café']);
  });
  it('finds a word in the middle of a clause, and only where its characters stand together', () => {
    expect(search('知识库')).toEqual(['Obsidian知识图谱']);
    expect(search('图谱')).toEqual(['Obsidian知识图谱']);
    expect(search('obsidian 图谱')).toEqual(['Obsidian知识图谱']);
    expect(search('库').sort()).toEqual(['Apart', 'Obsidian知识图谱']);
    expect(search('完善想法')).toEqual(['Obsidian知识图谱']);
    expect(search('笔记')).toEqual(['Obsidian知识图谱']);
    expect(search('メモ')).toEqual(['読書メモ']);
    expect(search('知识图书')).toEqual([]);
    expect(search('garden')).toEqual(['Garden']);
    expect(search('creme')).toEqual(['Garden']);
  });
  it('keeps Japanese voicing: タグ and タク are different words (accents of Latin letters still fold)', () => {
    expect(foldText('タグ')).not.toBe(foldText('タク'));
    expect(search('タグ')).toEqual(['読書メモ']);
    expect(search('タク')).toEqual(['Kana']);
    expect(foldText('Crème Brûlée')).toBe('creme brulee');
    expect(foldText('كِتَاب')).toBe('كتاب');
  });
  it("marks the matched characters in a result's passage, overlapping pairs as one mark", () => {
    const text = '我的个人知识库搭建';
    const spans = matchSpans(text, new Set(['知识', '识库']));
    expect(spans.map(([a, b]) => text.slice(a, b))).toEqual(['知识库']);
    expect(matchSpans('A garden 知识', new Set(['garden', '知识'])).length).toBe(2);
  });
  it('counts each character as a word, as Obsidian counts them', () => {
    expect(countWords('个人知识库搭建')).toBe(7);
    expect(countWords('Obsidian 知识图谱 notes')).toBe(6);
  });
});
