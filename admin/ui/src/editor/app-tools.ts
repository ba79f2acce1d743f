// The app's side of EditorTools (tools.ts): notes from the tree's index, headings from
// the server, block ids added to other notes, links followed into the workspace, images
// sent to POST /api/image.
import { api, ApiError } from '../api.ts';
import { t } from '../i18n.ts';
import { isolated } from '../isolate.ts';
import { notesMeta, refreshTree, revealPath } from '../tree/model.ts';
import { newNoteText } from '../tree/templates.ts';
import { toast, toastError } from '../ui/feedback.ts';
import { showView } from '../views.ts';
import { blockList } from './block-links.ts';
import { linkName, resolveLink } from './links.ts';
import { editorTools, type EditorTools } from './tools.ts';
import { nameOf, openNote, openNoteAt } from './workspace.ts';

async function toBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Opens `path` at a heading or a block (`^id`), or at its start. */
async function openAtHeading(path: string, heading: string | null): Promise<void> {
  showView('editor');
  if (!heading) {
    await openNote(path, { cursor: 0 });
    return;
  }
  const want = heading.split('#').pop()!.trim().toLowerCase();
  if (want.startsWith('^')) {
    const blocks = (await blockList()).noteBlocks(await noteText(path).catch(() => ''));
    const found = blocks.find((b) => b.id?.toLowerCase() === want.slice(1));
    await openNote(path, { cursor: found ? { line: found.first + 1 } : 0 });
    return;
  }
  const { headings } = await api.headings(path).catch(() => ({ headings: [] }));
  const found = headings.find((h) => h.text.toLowerCase() === want);
  await openNote(path, { cursor: found ? { line: found.line } : 0 });
}

async function noteText(path: string): Promise<string> {
  return openNoteAt(path)?.editor.getText() ?? (await api.note(path)).content;
}

/** A save that lost a race with another writer is tried once more, from the new text. */
const BLOCK_ID_TRIES = 2;

async function addBlockId(path: string, listed: Parameters<EditorTools['addBlockId']>[1], id: string): Promise<void> {
  const blocks = await blockList();
  const tab = openNoteAt(path);
  if (tab) {
    // Its tab saves it, as any edit: a change on disk meanwhile is that tab's to resolve. Offsets are the editor's own (lines joined by `\n`).
    const text = tab.editor.view.state.doc.toString();
    const block = blocks.sameBlock(text, listed);
    if (!block) throw new Error(t('blockIdGone', { path }));
    tab.editor.view.dispatch({ changes: blocks.blockIdChange(text, block, id), userEvent: 'input.complete' });
    return;
  }
  for (let attempt = 1; ; attempt++) {
    const note = await api.note(path);
    const block = blocks.sameBlock(note.content, listed);
    if (!block) throw new Error(t('blockIdGone', { path }));
    try {
      await api.saveNote(path, blocks.withBlockId(note.content, block, id), note.mtimeMs, { baseHash: note.hash });
      // The id isolated: in an Arabic sentence its `^` stays before it.
      toast(t('blockIdAdded', { id: isolated(`^${id}`), path }));
      return;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409 && attempt < BLOCK_ID_TRIES)) throw new Error(t('blockIdRefused', { path, reason: err instanceof Error ? err.message : String(err) }));
    }
  }
}

/** Obsidian creates the note an unresolved link names; so does a Ctrl/Cmd+click here. */
async function createLinked(target: string): Promise<string> {
  const path = `${linkName(target.replace(/^\/+/, ''))}.md`;
  await api.saveNote(path, await newNoteText(nameOf(path)));
  revealPath(path);
  await refreshTree();
  toast(t('linkCreated', { path }));
  return path;
}

export const appEditorTools: EditorTools = {
  notes: () => [...notesMeta.get().values()],
  headings: async (path) => (await api.headings(path)).headings,
  noteText,
  addBlockId,
  followLink(target, heading, fromPath) {
    const path = resolveLink(target, fromPath, [...notesMeta.get().values()]);
    void (path ? Promise.resolve(path) : createLinked(target)).then((p) => openAtHeading(p, heading)).catch(toastError);
  },
  async storeImage(notePath, file) {
    try {
      const answer = await api.image(notePath, file.name && !/^image\.\w+$/i.test(file.name) ? file.name : null, await toBase64(file));
      void refreshTree();
      return answer.name;
    } catch (err) {
      if (err instanceof ApiError) throw new Error(t('imageRefused', { reason: err.message }));
      throw err;
    }
  },
  fail: (err) => toastError(err),
};

export function installEditorTools(): void {
  editorTools.current = appEditorTools;
}
