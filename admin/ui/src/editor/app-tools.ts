// The app's side of EditorTools (tools.ts): notes from the tree's index, headings from
// the server, links followed into the workspace, images sent to POST /api/image.
import { api, ApiError } from '../api.ts';
import { t } from '../i18n.ts';
import { notesMeta, refreshTree, revealPath } from '../tree/model.ts';
import { newNoteText } from '../tree/templates.ts';
import { toast, toastError } from '../ui/feedback.ts';
import { showView } from '../views.ts';
import { linkName, resolveLink } from './links.ts';
import { editorTools, type EditorTools } from './tools.ts';
import { nameOf, openNote } from './workspace.ts';

async function toBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Opens `path` at a heading (its line), or at its start. */
async function openAtHeading(path: string, heading: string | null): Promise<void> {
  showView('editor');
  if (!heading) {
    await openNote(path, { cursor: 0 });
    return;
  }
  const want = heading.split('#').pop()!.trim().toLowerCase();
  const { headings } = await api.headings(path).catch(() => ({ headings: [] }));
  const found = headings.find((h) => h.text.toLowerCase() === want);
  await openNote(path, { cursor: found ? { line: found.line } : 0 });
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
