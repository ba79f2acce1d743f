// Embedded notes (`![[Note]]`, `![[Note#Heading]]`, `![[Note#^id]]`) in the model:
// which notes a page shows inside it (its dependencies: an edit, unpublish or rename of
// any of them re-renders the page), and the embeds that show nothing because their note
// is missing or unpublished (for the build's warnings; never for visitors).
import { NoteWarnings, type BuildWarning } from './build-warnings.ts';
import type { NoteRecord } from './note-record.ts';
import type { SiteModel } from './site-model.ts';

export interface EmbedProblem {
  /** The embed as written: target and `#subpath`. */
  target: string;
  subpath: string[];
  reason: 'missing' | 'unpublished';
  /** The embedded note's vault path, when it exists. */
  path?: string;
}

type EmbedView = Pick<SiteModel, 'resolver' | 'isVisible'>;

/** The embeds of `note` that can show nothing, and why. */
export function embedProblems(note: NoteRecord, model: EmbedView): EmbedProblem[] {
  const problems: EmbedProblem[] = [];
  for (const ref of note.transclusions) {
    const target = model.resolver.resolve(ref.target, note);
    if (!target) problems.push({ target: ref.target, subpath: ref.subpath, reason: 'missing' });
    else if (!model.isVisible(target)) problems.push({ target: ref.target, subpath: ref.subpath, reason: 'unpublished', path: target.path });
  }
  return problems;
}

/**
 * Every visible note `note` shows by embedding, directly or through embedded notes'
 * own embeds, in a stable order, `note` itself left out (cycles stop).
 */
export function embedClosure(note: NoteRecord, model: EmbedView): NoteRecord[] {
  if (note.transclusions.length === 0) return [];
  const seen = new Set<NoteRecord>([note]);
  const out: NoteRecord[] = [];
  const queue: NoteRecord[] = [note];
  while (queue.length) {
    const from = queue.shift()!;
    for (const ref of from.transclusions) {
      const target = model.resolver.resolve(ref.target, from);
      if (!target || seen.has(target) || !model.isVisible(target)) continue;
      seen.add(target);
      out.push(target);
      queue.push(target);
    }
  }
  return out;
}

// Like link warnings (build-warnings.ts): remembered per record while links resolve alike.
const embedMemo = new WeakMap<NoteRecord, { resolver: object; visibleKey: string; list: BuildWarning[] }>();

/** The build's warnings for embeds that show nothing (never shown to visitors). */
export function embedWarnings(note: NoteRecord, model: EmbedView & { visibleKey: string }): BuildWarning[] {
  if (note.transclusions.length === 0) return [];
  const known = embedMemo.get(note);
  if (known && known.resolver === model.resolver.generation && known.visibleKey === model.visibleKey) return known.list;
  const list = embedList(note, model);
  embedMemo.set(note, { resolver: model.resolver.generation, visibleKey: model.visibleKey, list });
  return list;
}

function embedList(note: NoteRecord, model: EmbedView): BuildWarning[] {
  const found = new NoteWarnings(note.path);
  for (const { target, subpath, reason, path } of embedProblems(note, model)) {
    const written = () => `![[${target}${subpath.length ? '#' + subpath.join('#') : ''}]]`;
    if (reason === 'missing') found.add('missing-embed', () => ({ note: note.path, kind: 'missing-embed', message: `embeds ${written()}, which does not exist: nothing is shown`, link: target }));
    else found.add('unpublished-embed', () => ({ note: note.path, kind: 'unpublished-embed', message: `embeds ${written()}, which is not published: nothing is shown`, target: path, link: target }));
  }
  return found.list();
}

/** Whether some visible note embeds (whole or in part) the note at a path: worked out once, over every visible note. */
export function embeddedTest(model: EmbedView & Pick<SiteModel, 'visible'>): (path: string) => boolean {
  const paths = new Set<string>();
  for (const note of model.visible) {
    for (const ref of note.transclusions) {
      const target = model.resolver.resolve(ref.target, note);
      if (target && model.isVisible(target)) paths.add(target.path);
    }
  }
  return (path) => paths.has(path);
}
