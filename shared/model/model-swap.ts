// A newer record of a note whose shape did not change (site-model.ts `modelShape`: same
// place in the site, same title, date, tags, links and embeds) takes the older one's
// place in every part of the model, found through the model's own indexes, never by
// visiting the rest of the vault (an edit costs what it touches).
import type { NoteRecord } from './note-record.ts';
import { newestFirst, type SiteModel } from './site-model.ts';
import { tagPageTag, topicKeysOf } from './topics.ts';
import { textCompare } from '../natural-order.ts';

const byPath = (a: NoteRecord, b: NoteRecord) => textCompare(a.path, b.path);

/** Replaces `before` in an array sorted by `order` (an equal-shaped record sorts the same); false when absent. */
function replaceSorted(list: NoteRecord[], before: NoteRecord, after: NoteRecord, order: (a: NoteRecord, b: NoteRecord) => number): boolean {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order(list[mid]!, before) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (list[lo] !== before) return false;
  list[lo] = after;
  return true;
}

/** Replaces `before` in a short list (a note's Related, static pages); false when absent. */
function replaceIn(list: NoteRecord[] | undefined, before: NoteRecord, after: NoteRecord): boolean {
  const i = list ? list.indexOf(before) : -1;
  if (i < 0) return false;
  list![i] = after;
  return true;
}

/**
 * Puts `after` where `before` is, everywhere in `model`. The caller has checked that both
 * have the same shape. False when the model did not hold `before` where its shape says
 * it must be (the caller then derives the model again).
 */
export function swapRecord(model: SiteModel, before: NoteRecord, after: NoteRecord): boolean {
  if (!replaceSorted(model.all, before, after, byPath)) return false;
  model.resolver.replace(after);
  const key = tagPageTag(after)?.toLowerCase();
  if (key !== undefined && model.topics.tagPages.get(key) === before) model.topics.tagPages.set(key, after);
  if (!model.isVisible(before)) return true;

  model.byAddress.set(after.address, after);
  if (!replaceSorted(model.visible, before, after, newestFirst)) return false;
  const listed = replaceSorted(model.posts, before, after, newestFirst) || replaceIn(model.pages, before, after);
  if (!listed) return false;
  if (model.homeNote === before) model.homeNote = after;

  const around = model.neighbours.get(after.path);
  if (around) {
    if (around.newer) model.neighbours.get(around.newer.path)!.older = after;
    if (around.older) model.neighbours.get(around.older.path)!.newer = after;
  }
  // Related is symmetric: whoever `before` is related to lists it; the notes it links to list it as a backlink.
  for (const other of model.related.get(after.path) ?? []) {
    replaceIn(model.related.get(other.path), before, after);
    replaceIn(model.backlinks.get(other.path), before, after);
  }
  const twin = model.twins.get(after.path);
  if (twin && model.twins.get(twin.path) === before) model.twins.set(twin.path, after);

  // The topics of its tags and of the tags they nest in (`a` for `a/b`) all list it.
  for (const key of topicKeysOf(after.tags, model.topics).keys()) {
    const topic = model.topics.byKey.get(key);
    if (topic && !replaceSorted(topic.posts, before, after, newestFirst)) return false;
  }
  for (const c of model.collections) {
    replaceSorted(c.members, before, after, newestFirst);
    if (c.source === before) c.source = after;
  }
  for (const c of model.categories) {
    if (c.folder === after.folder) replaceSorted(c.members, before, after, newestFirst);
    if (c.folderNote === before) c.folderNote = after;
  }
  // A heading renamed keeps the shape: the links into the note's headings and blocks are checked again.
  model.anchors.swapped(after, model);
  return true;
}
