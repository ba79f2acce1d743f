// Which notes are tag page notes (their title or label names a topic on every public
// page): one in Topics/ or Tags/, or one declaring `collection: true|false`. Anywhere else
// `tag:` is Obsidian's other spelling of `tags:`: a private diary saying `tag: journal`
// once put its title on every public page as the topic's name (a reviewer's find).
import { describe, expect, it } from 'vitest';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { buildTopics, tagPageTag } from '../../shared/model/topics.ts';

function note(path: string, data: Record<string, unknown>, extra: Partial<NoteRecord> = {}): NoteRecord {
  const slash = path.lastIndexOf('/');
  return {
    path,
    folder: slash < 0 ? '' : path.slice(0, slash),
    name: path.slice(slash + 1).replace(/\.md$/, ''),
    data,
    tags: [],
    publish: false,
    ...extra,
  } as unknown as NoteRecord;
}

describe('tag page notes', () => {
  it('are the notes of Topics/ or Tags/, and those declaring collection: true or false', () => {
    expect(tagPageTag(note('Topics/travel.md', { title: 'Journeys' }))).toBe('travel');
    expect(tagPageTag(note('Notes/Tags/cooking.md', {}))).toBe('cooking');
    expect(tagPageTag(note('Topics/Travel notes.md', { tag: '#travel' }))).toBe('travel');
    expect(tagPageTag(note('Elsewhere/garden.md', { collection: true, tag: 'garden' }))).toBe('garden');
    expect(tagPageTag(note('Elsewhere/Hidden.md', { collection: 'false' }))).toBe('Hidden');
  });

  it('are not a note that says tag: (Obsidian\'s spelling of tags:) nor one with another program\'s collection:', () => {
    expect(tagPageTag(note('2024-03-01 Diary.md', { title: 'SECRET-DIARY-TITLE', tag: 'journal' }))).toBeNull();
    expect(tagPageTag(note('Papers/Smith 2020.md', { collection: 'Zotero' }))).toBeNull();
  });

  it('a private note saying tag: never labels the topic; a post saying tag: carries it without renaming it', () => {
    const post = note('Posts/Trip.md', { title: 'My trip', tag: 'travel' }, { publish: true, tags: ['travel', 'journal'] });
    const diary = note('2024-03-01 Diary.md', { title: 'SECRET-DIARY-TITLE', tag: 'journal' });
    const page = note('Topics/travel.md', { title: 'Journeys' });
    const topics = buildTopics([diary, post, page], [post], [], 'en');
    expect(topics.byKey.get('journal')!.label).toBe('journal');
    expect(topics.byKey.get('travel')!.label).toBe('Journeys');
    expect(JSON.stringify(topics.topics)).not.toContain('SECRET');
  });
});
