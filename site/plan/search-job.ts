// A full build's search base made by its build thread. The build thread is idle
// while the build plans the site (only this side holds the model), and the base's files
// depend on nothing but the searchable notes' documents, which are known before the plan
// (search-docs.ts searchableBeforePlan): they go to the build thread as the plan starts, and
// its files come back before the plan's search outputs are made (search-index.ts). A
// build thread lost on the way answers null: the build makes the files itself from the same
// documents.
import type { NoteRecord } from '../../shared/model/note-record.ts';
import type { ModelSettings } from '../../shared/model/site-model.ts';
import type { SearchDoc } from '../../shared/search/index-format.ts';
import type { BuildThreadLink } from '../build/build-thread-link.ts';
import { baseFiles, searchBaseOf, type BaseFiles } from './search-base.ts';
import { docChars, searchableBeforePlan, searchDocOf } from './search-docs.ts';
import type { SearchIndex } from './search-index.ts';

/** The searchable notes and their documents, taken before the plan, until the base made from them goes to the index. */
export class EarlySearch {
  private taken: { notes: NoteRecord[]; docs: SearchDoc[] } | null = null;

  /** The documents to index (each note's text is taken from its record: the record keeps none). */
  docsOf(records: Iterable<NoteRecord>, settings: Pick<ModelSettings, 'templatesFolder'>): SearchDoc[] {
    const notes = searchableBeforePlan(records, settings);
    this.taken = { notes, docs: notes.map(searchDocOf) };
    return this.taken.docs;
  }

  /**
   * Gives `index` the base of the documents taken: from the build thread's files, or (it was lost)
   * from files made here of the same documents, no note parsed again. Nothing when none were
   * taken (no build thread): the plan makes the base itself.
   */
  adoptInto(index: SearchIndex, files: BaseFiles | null): void {
    if (this.taken) index.adoptBase(searchBaseOf(this.taken.notes, files ?? baseFiles(this.taken.docs)));
    this.taken = null;
  }
}

/**
 * The most text a search job gives the build thread: making the base holds about four times the
 * documents' text at once (the documents, the terms and their postings, the shards), and
 * the build thread's heap is capped (build-thread-link.ts). 30,000 generated notes are 23 M characters.
 */
export const SEARCH_JOB_MAX_CHARS = 48 * 1024 * 1024;

/**
 * The base's files of `docs` (in id order), made by the build thread; null when it was lost
 * first, or the documents hold more than `maxChars` of text (the build makes them itself).
 */
export function searchOnBuildThread(thread: BuildThreadLink, docs: SearchDoc[], maxChars = SEARCH_JOB_MAX_CHARS): Promise<BaseFiles | null> {
  let chars = 0;
  for (const doc of docs) chars += docChars(doc);
  if (chars > maxChars || !thread.send({ type: 'search', docs })) return Promise.resolve(null);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (files: BaseFiles | null) => {
      if (settled) return;
      settled = true;
      off();
      resolve(files);
    };
    const off = thread.on((reply) => {
      if (reply.type === 'searched') settle(reply.files);
    });
    void (async () => {
      while (!settled && !thread.lost) await thread.changed();
      settle(null);
    })();
  });
}
