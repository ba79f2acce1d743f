// CONTRACT §7, wikilink targets: which file a link names (chooseLinkpath, the one rule
// for notes and attachments), and a dot in a note's name (`Node.js`, `Release 2.1`,
// `Vue 3.x`) read as part of the name, not as a file's extension.
import { describe, expect, it } from 'vitest';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { chooseLinkpath, type LinkpathLookup } from '../../shared/model/links.ts';
import { isAttachmentTarget, linkKey } from '../../shared/wikilinks.ts';

function store(paths: string[]): LinkpathLookup {
  const byPath = new Map(paths.map((p) => [linkKey(p), p]));
  const byName = new Map<string, string[]>();
  for (const p of paths) {
    const key = linkKey(p.slice(p.lastIndexOf('/') + 1));
    byName.set(key, [...(byName.get(key) ?? []), p]);
  }
  return { byPath: (k) => byPath.get(k), byName: (k) => byName.get(k) };
}

describe('chooseLinkpath: which file a link names', () => {
  const vault = store(['Same.md', 'A/Same.md', 'A/B/Same.md', 'C/Same.md', 'A/Only.md', 'X/Y/Deep.md', 'Z/Y/Deep.md']);

  it('among notes of one name, the one beside the linking note wins over a shorter path', () => {
    expect(chooseLinkpath('Same', 'A/B', vault)).toBe('A/B/Same.md');
    expect(chooseLinkpath('Same', 'C', vault)).toBe('C/Same.md');
  });

  it('a path relative to the linking note’s folder first, then from the vault root', () => {
    expect(chooseLinkpath('B/Same', 'A', vault)).toBe('A/B/Same.md');
    expect(chooseLinkpath('A/Same', 'C', vault)).toBe('A/Same.md');
    expect(chooseLinkpath('Same', null, vault)).toBe('Same.md');
  });

  it('without one beside it, the shortest path; a partial path picks the notes ending so', () => {
    expect(chooseLinkpath('Same', 'Elsewhere', vault)).toBe('Same.md');
    expect(chooseLinkpath('Y/Deep', 'Z', vault)).toBe('Z/Y/Deep.md');
    expect(chooseLinkpath('Y/Deep', 'Q', vault)).toBe('X/Y/Deep.md');
  });

  // Obsidian's help links [[Plugins/Tags]] from `Editing and formatting/Tags.md`: the page linked to itself.
  it('a link that names folders leads only to a file under them, as in Obsidian, even when one file has the name', () => {
    expect(chooseLinkpath('Plugins/Tags', 'Editing', store(['Editing/Tags.md']))).toBeNull();
    expect(chooseLinkpath('W/Deep', 'Q', vault)).toBeNull();
    expect(chooseLinkpath('Nope/Only', null, vault)).toBeNull();
    expect(chooseLinkpath('A/Only', 'Q', vault)).toBe('A/Only.md');
    expect(chooseLinkpath('Y/Deep', 'Q', vault)).toBe('X/Y/Deep.md');
  });

  // A file named on macOS is often decomposed (`Cafe` + U+0301); a link typed anywhere composed.
  it('Unicode form never matters either: a composed link finds a decomposed name, and the other way', () => {
    const names = store(['Notes/Cafe\u0301.md', 'Thé.md']);
    expect(chooseLinkpath('Café', null, names)).toBe('Notes/Cafe\u0301.md');
    expect(chooseLinkpath('Notes/CAFÉ', null, names)).toBe('Notes/Cafe\u0301.md');
    expect(chooseLinkpath('The\u0301', null, names)).toBe('Thé.md');
  });

  it('case never matters; an unknown name is null', () => {
    expect(chooseLinkpath('only', null, vault)).toBe('A/Only.md');
    expect(chooseLinkpath('Nope', 'A', vault)).toBeNull();
  });

  it('a dotted note name is found like any other, beside the linking note first', () => {
    const dotted = store(['Tech/Node.js.md', 'Old/Node.js.md', 'Release 2.1.md']);
    expect(chooseLinkpath('Node.js', 'Tech', dotted)).toBe('Tech/Node.js.md');
    expect(chooseLinkpath('Node.js', 'Old', dotted)).toBe('Old/Node.js.md');
    expect(chooseLinkpath('release 2.1', 'Tech', dotted)).toBe('Release 2.1.md');
  });
});

describe('a dot in a note’s name is part of the name', () => {
  const links: RenderLinks = {
    note: (t) => (['node.js', 'release 2.1', 'vue 3.x'].includes(t.toLowerCase()) ? { href: `/${t.replace(/ /g, '-')}`, title: t } : null),
    attachment: (t) => (['pic.png', 'file.pdf', 'model.glb'].includes(t) ? `/${t}` : null),
    embed: (ref) => `<div class="s-embed">EMBEDDED ${ref.target}</div>\n`,
  };
  const render = (body: string) => renderNoteHtml(body, 'Title', links);

  it('known attachment formats are files; other dots are names', () => {
    for (const file of ['pic.png', 'file.pdf', 'a/b.JPEG', 'song.mp3', 'sheet.xlsx']) expect(isAttachmentTarget(file), file).toBe(true);
    for (const name of ['Node.js', 'Release 2.1', 'Vue 3.x', 'Note.md', 'Paper.tex', 'Plain']) expect(isAttachmentTarget(name), name).toBe(false);
  });

  it('[[Node.js]] and [[Release 2.1]] link the notes; ![[Vue 3.x]] embeds its note', () => {
    expect(render('[[Node.js]] and [[Release 2.1|the release]]')).toBe(
      '<p><a class="s-wikilink internal-link" href="/Node.js">Node.js</a> and <a class="s-wikilink internal-link" href="/Release-2.1">the release</a></p>\n',
    );
    expect(render('Before ![[Vue 3.x]] after')).toBe('<p>Before</p>\n<div class="s-embed">EMBEDDED Vue 3.x</div>\n<p>after</p>\n');
  });

  it('they are links and embeds of the note model (related notes, the embed graph)', () => {
    const facts = analyzeNote('[[Node.js]] [[Release 2.1]] ![[Vue 3.x]] ![[pic.png]] [[file.pdf]]');
    expect(facts.links).toEqual(['Node.js', 'Release 2.1']);
    expect(facts.transclusions).toEqual([{ target: 'Vue 3.x', subpath: [], alias: null }]);
    expect(facts.files).toEqual(expect.arrayContaining(['pic.png', 'file.pdf']));
  });

  it('when no note answers, a file of that name does (a format not listed)', () => {
    expect(render('[[model.glb|the model]]')).toContain('<a class="s-attachment internal-link" href="/model.glb">the model</a>');
    expect(render('[[Missing.v2]]')).toContain('<span class="s-wikilink s-unresolved">Missing.v2</span>');
    expect(analyzeNote('[[model.glb]]').files).toEqual(['model.glb']);
  });
});
