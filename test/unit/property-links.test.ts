// Obsidian counts a link written in a property (`up: "[[Parent]]"`) among the note's links:
// backlinks, graph, a rename's rewrite. The site read only the text's, so a vault that keeps
// its structure in properties (breadcrumbs, related notes) showed none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteModel } from '../../shared/model/site-model.ts';
import { MAX_ITEMS, propertyLinks } from '../../shared/note/property-links.ts';
import { modelOfFiles } from '../helpers/site-model.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

describe('propertyLinks', () => {
  it("reads each link of a property's text or list, with what a reader reads for it", () => {
    expect(propertyLinks({ up: '[[Parent]]', related: ['[[A|the a]]', 'plain', '[[B#Part]] and [[C]]'], count: 3 })).toEqual([
      { key: 'up', target: 'Parent', shown: 'Parent' },
      { key: 'related', target: 'A', shown: 'the a' },
      { key: 'related', target: 'B', shown: 'B > Part' },
      { key: 'related', target: 'C', shown: 'C' },
    ]);
  });

  it('reads none from the keys that steer publishing, none to a file, none past its bounds', () => {
    expect(propertyLinks({ aliases: ['[[A]]'], tags: ['[[B]]'], twin: '[[C]]', cover: '[[pic.png]]', see: '[[pic.png]]', Publish: '[[D]]' })).toEqual([]);
    const many = Array.from({ length: MAX_ITEMS + 10 }, (_, i) => `[[N${i}]]`);
    expect(propertyLinks({ list: many })).toHaveLength(MAX_ITEMS);
  });
});

let model: SiteModel;
beforeAll(async () => {
  model = await modelOfFiles('vs-property-links-', {
    'Parent.md': '---\npublish: true\n---\nThe parent.\n',
    'Child.md': '---\npublish: true\nup: "[[Parent]]"\nsee: "[[Nobody]]"\n---\nNo link in the text.\n',
  });
});
afterAll(cleanupTempDirs);

describe("a note's property links in the model", () => {
  it("are the note's links: Site health names one to a note that does not exist", () => {
    const child = [...model.visible].find((n) => n.path === 'Child.md')!;
    expect(child.links).toEqual(['Parent', 'Nobody']);
    expect(model.warnings.filter((w) => w.kind === 'missing-link').map((w) => [w.note, w.link])).toEqual([['Child.md', 'Nobody']]);
  });
});
