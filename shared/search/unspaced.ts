// Chinese and Japanese are written without spaces between words: a clause was one token, and
// search matched only from its start (`知识库` never found `个人知识库搭建`; Obsidian finds any
// part). A run of their characters is indexed as each character and each pair of neighbours,
// the way Lucene's CJK analyzer reads it; a query's run is read as its pairs, all required,
// so a word is found wherever it stands (a lone character as itself).

/** Whether the UTF-16 code unit `c` is of Han, kana or their marks (a high surrogate of planes 2–3: Han). */
export function isUnspaced(c: number): boolean {
  return (
    (c >= 0x3040 && c <= 0x30ff) || // hiragana, katakana (with ー)
    (c >= 0x3400 && c <= 0x9fff) || // Han, extension A
    (c >= 0xf900 && c <= 0xfaff) || // compatibility ideographs
    (c >= 0x3005 && c <= 0x3007) || // 々 〆 〇
    (c >= 0x31f0 && c <= 0x31ff) || // katakana extensions
    (c >= 0xff66 && c <= 0xff9f) || // half-width katakana
    (c >= 0xd840 && c <= 0xd8bf) // Han, extensions B to H
  );
}

/** Whether `word` holds a character of those scripts (a quick test before splitting it). */
export function hasUnspaced(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (isUnspaced(word.charCodeAt(i))) return true;
  return false;
}

/**
 * `word` (a run between separators) as the index reads it: its other letters as one token,
 * each run of those scripts as its characters and their pairs (`query`: its pairs only, a
 * one-character run as itself).
 */
export function splitUnspaced(word: string, query: boolean, out: string[]): void {
  let other = '';
  let run: string[] = [];
  const flush = () => {
    if (run.length === 0) return;
    if (!query || run.length === 1) out.push(...run);
    for (let i = 0; i + 1 < run.length; i++) out.push(run[i]! + run[i + 1]!);
    run = [];
  };
  for (const ch of word) {
    if (isUnspaced(ch.charCodeAt(0))) {
      if (other) out.push(other);
      other = '';
      run.push(ch);
    } else {
      flush();
      other += ch;
    }
  }
  flush();
  if (other) out.push(other);
}
