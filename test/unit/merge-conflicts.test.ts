// A git merge that stopped on a conflict writes both sides into the note between marker
// lines, and a commit made before anyone resolved it keeps them (Obsidian Git's "commit and
// sync" commits what the files hold). The page then showed a heading made of the first side
// and seven nested quotes, and nothing told the owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatWarning, HEALTH_KIND } from '../../shared/model/build-warnings.ts';
import type { SiteModel } from '../../shared/model/site-model.ts';
import { markdown } from '../../shared/note/md.ts';
import { mergeConflicts } from '../../shared/note/merge-conflicts.ts';
import { modelOfFiles } from '../helpers/site-model.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

const count = (text: string): number => mergeConflicts(text, markdown().parse(text, {}));
const conflict = '<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> origin/main\n';

describe('mergeConflicts', () => {
  it('counts each conflict git writes, with or without labels, a diff3 base or Windows line breaks', () => {
    expect(count(`Intro\n${conflict}End\n`)).toBe(1);
    expect(count(`${conflict}between\n${conflict}`)).toBe(2);
    expect(count('<<<<<<<\na\n|||||||  merged common ancestors\nbase\n=======\nb\n>>>>>>>\n')).toBe(1);
    expect(count(conflict.replaceAll('\n', '\r\n'))).toBe(1);
  });

  it('counts no markers shown in code, and no half of a conflict', () => {
    expect(count(`\`\`\`diff\n${conflict}\`\`\`\n`)).toBe(0);
    expect(count(`Example:\n\n    <<<<<<< HEAD\n    mine\n    =======\n    theirs\n    >>>>>>> main\n`)).toBe(0);
    expect(count('<<<<<<< HEAD\nmine\n=======\ntheirs\n')).toBe(0);
    expect(count('Title\n=======\n\n> > > > > > > quoted\n')).toBe(0);
    expect(count('<<<<<<<< eight\n=======\n>>>>>>>> eight\n')).toBe(0);
    expect(count('An arrow <<<<<<< in a line\n=======\n>>>>>>> x\n')).toBe(0);
  });
});

let model: SiteModel;
beforeAll(async () => {
  model = await modelOfFiles('vs-merge-conflict-', {
    'Merged.md': `---\npublish: true\n---\nIntro\n${conflict}End\n`,
    'Twice.md': `---\npublish: true\n---\n${conflict}\n${conflict}`,
    'Private.md': `Intro\n${conflict}`,
    'About git.md': `---\npublish: true\n---\n\`\`\`\n${conflict}\`\`\`\n`,
  });
});
afterAll(cleanupTempDirs);

describe('a published note holding a merge conflict', () => {
  it('is still a post, and Site health names it with the count of its conflicts', () => {
    expect(model.posts.map((p) => p.path).sort()).toEqual(['About git.md', 'Merged.md', 'Twice.md']);
    const warnings = model.warnings.filter((w) => w.kind === 'merge-conflict');
    expect(warnings.map((w) => [w.note, w.count])).toEqual([['Merged.md', 1], ['Twice.md', 2]]);
    expect(formatWarning(warnings[0]!)).toContain('Merged.md: has an unresolved merge conflict');
    expect(HEALTH_KIND['merge-conflict']).toBe('merge_conflict');
  });
});
