// A vault kept in step by a sync tool (Syncthing, Dropbox, Nextcloud) holds, now and then, a
// conflict copy of a note it could not merge. The copy carries the note's frontmatter,
// `publish: true` with it, and was a second post of the same text, in the lists and the feed,
// at an address like /Note.sync-conflict-20240115-123456-ABCDEF1, until someone resolved it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_KIND } from '../../shared/model/build-warnings.ts';
import type { SiteModel } from '../../shared/model/site-model.ts';
import { conflictCopyOf } from '../../shared/vault-names.ts';
import { modelOfFiles } from '../helpers/site-model.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

describe('conflictCopyOf', () => {
  it('names the note a copy is of, for Syncthing, Dropbox and Nextcloud', () => {
    expect(conflictCopyOf('Posts/Trip.sync-conflict-20240115-123456-ABCDEF1.md')).toBe('Posts/Trip.md');
    expect(conflictCopyOf('Trip (conflicted copy 2024-01-15).md')).toBe('Trip.md');
    expect(conflictCopyOf("Posts/Trip (Sam's conflicted copy 2024-01-15).md")).toBe('Posts/Trip.md');
    expect(conflictCopyOf('Trip (conflicted copy 2024-01-15 123456).md')).toBe('Trip.md');
    expect(conflictCopyOf('Trip (Conflicted copy 2024-01-15) (1).md')).toBe('Trip.md');
  });

  it('is null for every other name', () => {
    for (const p of ['Trip.md', 'Posts/Trip (draft).md', 'Notes on sync-conflict.md', 'Trip.sync-conflict.md', 'conflicted copy.md', '.sync-conflict-20240115-123456-ABCDEF1.md']) {
      expect(conflictCopyOf(p), p).toBeNull();
    }
  });
});

let model: SiteModel;
beforeAll(async () => {
  const post = '---\npublish: true\ndate: 2024-01-15\n---\nThe trip.\n';
  model = await modelOfFiles('vs-conflicts-', {
    'Posts/Trip.md': post,
    'Posts/Trip.sync-conflict-20240115-123456-ABCDEF1.md': post,
    'Posts/Trip (conflicted copy 2024-01-16).md': post,
  });
});
afterAll(cleanupTempDirs);

describe('a conflict copy in the vault', () => {
  it('is no post, and Site health names the note it copies', () => {
    expect(model.posts.map((p) => p.path)).toEqual(['Posts/Trip.md']);
    const warnings = model.warnings.filter((w) => w.kind === 'sync-conflict');
    expect(warnings.map((w) => [w.note, w.target])).toEqual([
      ['Posts/Trip (conflicted copy 2024-01-16).md', 'Posts/Trip.md'],
      ['Posts/Trip.sync-conflict-20240115-123456-ABCDEF1.md', 'Posts/Trip.md'],
    ]);
    expect(HEALTH_KIND['sync-conflict']).toBe('sync_conflict');
  });
});
