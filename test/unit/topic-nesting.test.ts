// Topics of nested tags (spec 2.8): `#a/b/c` makes a topic of `a`, `a/b` and `a/b/c`, each
// listing the posts under it once, newest first. Ranked by the posts carrying the tag
// itself, so parents never push the busiest written tags out of the topic row.
import { describe, expect, it } from 'vitest';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { buildCollections } from '../../shared/model/collections.ts';
import { buildTopics, MAX_TOPIC_DEPTH, tagLineage } from '../../shared/model/topics.ts';

/** A post (newest first is the order `posts` is given in), with its tags. */
const post = (name: string, tags: string[]) => ({ path: `Posts/${name}.md`, folder: 'Posts', name, data: {}, tags, publish: true }) as unknown as NoteRecord;
const names = (posts: NoteRecord[]) => posts.map((p) => p.name);

describe('a nested tag and the tags it nests in', () => {
  it('a tag nests in each of its prefixes at a slash', () => {
    expect(tagLineage('a/b/c')).toEqual(['a', 'a/b', 'a/b/c']);
    expect(tagLineage('solo')).toEqual(['solo']);
  });

  it('a tag makes at most eight topics: its seven outermost levels and itself (a note of 100 tags nested 200 levels built 20,000 topic pages)', () => {
    const deep = Array.from({ length: 12 }, (_, i) => `l${i}`).join('/');
    expect(tagLineage(deep)).toEqual([...Array.from({ length: 7 }, (_, i) => deep.split('/').slice(0, i + 1).join('/')), deep]);
    expect(tagLineage('a/b/c/d/e/f/g/h')).toHaveLength(MAX_TOPIC_DEPTH);
    // A note of 100 tags each nested 200 levels (a 400-byte address each): 800 topics, not 20,000; the deep tag nests under its seventh level.
    const tags = Array.from({ length: 100 }, (_, t) => `t${t}/${Array.from({ length: 199 }, () => 'a').join('/')}`);
    const posts = [post('deep', tags)];
    const topics = buildTopics(posts, posts, [], 'en');
    expect(topics.topics).toHaveLength(100 * MAX_TOPIC_DEPTH);
    const own = topics.byKey.get(tags[0]!)!;
    expect(names(own.posts)).toEqual(['deep']);
    expect(topics.byKey.get(tagLineage(tags[0]!)[6]!)!.children).toEqual([own]);
  });

  it('each parent lists every post under it once, newest first, and knows its nested topics with their posts', () => {
    const posts = [post('p1', ['a/b/c', 'a/x']), post('p2', ['a/b']), post('p3', ['A', 'a/b/c']), post('p4', ['other'])];
    const topics = buildTopics(posts, posts, [], 'en');
    expect(names(topics.byKey.get('a')!.posts)).toEqual(['p1', 'p2', 'p3']);
    expect(names(topics.byKey.get('a/b')!.posts)).toEqual(['p1', 'p2', 'p3']);
    expect(names(topics.byKey.get('a/b/c')!.posts)).toEqual(['p1', 'p3']);
    expect(topics.byKey.get('a')!.children.map((t) => [t.key, t.posts.length])).toEqual([['a/b', 3], ['a/x', 1]]);
    expect(topics.byKey.get('a/b')!.children.map((t) => t.key)).toEqual(['a/b/c']);
    expect([topics.byKey.get('a')!.own, topics.byKey.get('a/b')!.own]).toEqual([1, 1]);
    expect(topics.byKey.get('a')!.address).toBe('/topic/a');
  });

  it('parents rank by the posts carrying them, after every tag written more often: the busiest written tags keep the row', () => {
    const posts = Array.from({ length: 30 }, (_, i) => post(`p${i}`, [`deep/t${i}`, i % 2 ? 'odd' : 'even']));
    const keys = buildTopics(posts, posts, [], 'en').topics.map((t) => t.key);
    expect(keys.slice(0, 2)).toEqual(['even', 'odd']);
    // `deep` lists all thirty, but no post carries it: last, after the tags written once.
    expect(keys.at(-1)).toBe('deep');
    expect(keys).toHaveLength(33);
  });

  it('an excluded tag lists its posts on no parent; an excluded parent has no topic, its nested tags keep theirs', () => {
    const posts = [post('p1', ['a/private']), post('p2', ['a/public']), post('p3', ['hidden/child'])];
    const topics = buildTopics(posts, posts, ['a/private', '#hidden'], 'en');
    expect(names(topics.byKey.get('a')!.posts)).toEqual(['p2']);
    expect(topics.byKey.has('a/private')).toBe(false);
    expect(topics.byKey.has('hidden')).toBe(false);
    expect(names(topics.byKey.get('hidden/child')!.posts)).toEqual(['p3']);
  });

  it("a tag whose topic page would be another topic's later page (`#a/page/2`) has no page of its own; the topics above it list its posts", () => {
    const posts = [post('p1', ['a/page/2']), post('p2', ['a']), post('p3', ['a/page/2/deeper', 'b/page/7'])];
    const topics = buildTopics(posts, posts, [], 'en');
    expect(topics.byKey.has('a/page/2')).toBe(false);
    expect(topics.hasPage('a/page/2')).toBe(false);
    expect(names(topics.byKey.get('a')!.posts)).toEqual(['p1', 'p2', 'p3']);
    expect(names(topics.byKey.get('a/page')!.posts)).toEqual(['p1', 'p3']);
    // Deeper, it is an address no list page has.
    expect(topics.byKey.get('a/page/2/deeper')!.address).toBe('/topic/a/page/2/deeper');
    expect(names(topics.byKey.get('b/page')!.posts)).toEqual(['p3']);
    expect(topics.topics.map((t) => t.address)).not.toContain('/topic/b/page/7');
  });

  it('a nested topic whose direct parent is excluded is listed under the nearest topic above it', () => {
    const posts = [post('p1', ['a/b/c'])];
    const topics = buildTopics(posts, posts, ['a/b'], 'en');
    expect(topics.byKey.get('a')!.children.map((t) => t.key)).toEqual(['a/b/c']);
  });

  it("a collection of a tag holds the posts of the tags nested in it, as the tag's topic page does, an excluded nested tag aside", () => {
    const posts = [post('p1', ['garden/roses']), post('p2', ['garden']), post('p3', ['gardening']), post('p4', ['garden/secret'])].map((p) => ({ ...p, folderSlugs: [] }) as NoteRecord);
    const declaring = { path: 'Topics/garden.md', folder: 'Topics', name: 'garden', data: { collection: true }, tags: [], publish: false } as unknown as NoteRecord;
    const topics = buildTopics([...posts, declaring], posts, ['garden/secret'], 'en');
    const [garden] = buildCollections(topics, posts, 'en');
    expect(names(garden!.members)).toEqual(['p1', 'p2']);
    expect(names(topics.byKey.get('garden')!.posts)).toEqual(['p1', 'p2']);
  });
});
