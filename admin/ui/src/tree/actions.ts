// What the file tree can do to the vault: create, rename, move, delete to trash,
// and the folder actions of spec D.5. Every note write goes through PUT /api/note,
// the server's single write path.
import { encodeAddress, permalinkAddress } from '../../../../shared/model/addresses.ts';
import { sameName } from '../../../../shared/vault-names.ts';
import { api, ApiError } from '../api.ts';
import { siteAddress } from '../editor/PublishControls.tsx';
import { adoptRewrites, flushAll, followRename, forgetPath, nameOf, openNote, openNoteAt, whileMoving } from '../editor/workspace.ts';
import { showView } from '../views.ts';
import { t } from '../i18n.ts';
import { confirmDialog, promptDialog, toast, toastError } from '../ui/feedback.ts';
import { isTrue, readKey, setKey } from './frontmatter.ts';
import { entries, notesUnder, refreshTree, revealPath } from './model.ts';
import { newNoteText } from './templates.ts';
import type { NoteDoc } from '../types.ts';
import { isolatedPath } from '../isolate.ts';

const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const join = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);
export const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

function withNoteExtension(name: string): string {
  return /\.(md|markdown|tex)$/i.test(name) ? name : `${name}.md`;
}

async function exists(path: string): Promise<boolean> {
  const { states } = await api.noteStates([path]);
  return states[0]?.mtimeMs !== null && states[0]?.mtimeMs !== undefined;
}

/** A new note opens with the cursor in its body, from the default template when there is one. */
export async function newNote(folder = ''): Promise<void> {
  const name = (await promptDialog(t('noteName'), '', undefined, folder ? undefined : t('newNoteFolderHint')))?.trim();
  if (!name) return;
  try {
    const path = join(folder, withNoteExtension(name.replace(/^\/+|(?<!\/)\/+$/g, '')));
    if (!(await exists(path))) await api.saveNote(path, await newNoteText(nameOf(path)));
    revealPath(path);
    showView('editor');
    await refreshTree();
    await openNote(path, { cursor: 'end' });
  } catch (err) {
    toastError(err);
  }
}

/** There is no empty folder in the API: a folder starts with its first note. */
export async function newFolder(parent = ''): Promise<void> {
  const name = (await promptDialog(t('folderName'), ''))?.trim().replace(/^\/+|(?<!\/)\/+$/g, '');
  if (!name) return;
  try {
    const path = join(join(parent, name), 'Untitled.md');
    if (!(await exists(path))) await api.saveNote(path, await newNoteText('Untitled'));
    revealPath(path);
    showView('editor');
    await refreshTree();
    await openNote(path, { cursor: 'end' });
  } catch (err) {
    toastError(err);
  }
}

/** Moves a note or folder; answers how many other notes had their links rewritten. */
async function moveTo(path: string, to: string): Promise<number> {
  if (to === path) return 0;
  await flushAll();
  const rewritten = await whileMoving(async () => {
    const answer = await api.rename(path, to);
    followRename(path, to);
    await adoptRewrites(answer.rewritten ?? []);
    return answer.rewritten?.length ?? 0;
  });
  revealPath(to);
  await refreshTree();
  return rewritten;
}

/** A file's name and its extension (`.md`, `.png`); a folder has none. */
export function splitName(name: string, isFolder: boolean): [stem: string, ext: string] {
  const dot = name.lastIndexOf('.');
  return isFolder || dot <= 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot)];
}

type CountKey = 'renameLinks' | 'renameRewrote';

/** A sentence about N notes: none has a sentence of its own, the rest take the count's plural form. */
const countOfNotes = (key: CountKey, n: number): string => (n === 0 ? t(`${key}None`) : t(key, { count: n }));

const isNotePath = (path: string) => /\.(md|markdown)$/i.test(path);

/**
 * What renaming a note does, said before it is done: its public address (moved with a 301,
 * kept by a permalink, or none while it is a draft) and how many notes have their links rewritten.
 */
async function renameDetail(path: string): Promise<string> {
  // An open note's text is newer than the disk's until its next save.
  const open = openNoteAt(path);
  const [text, links] = await Promise.all([open ? open.editor.getText() : api.note(path).then((d) => d.content), api.backlinks(path).catch(() => ({ backlinks: [] }))]);
  const linking = new Set(links.backlinks.map((b) => b.path).filter((p) => p !== path)).size;
  let address: string;
  if (!isTrue(readKey(text, 'publish'))) address = t('renameNotPublished');
  else {
    const permalink = permalinkAddress(readKey(text, 'permalink'));
    // Isolated, so a right-to-left sentence keeps the address's slashes where they are.
    address = permalink ? t('renameKeepsPermalink', { address: isolatedPath(encodeAddress(permalink)) }) : t('renameMovesPage', { address: isolatedPath(siteAddress(path)) });
  }
  const rewritten = countOfNotes('renameLinks', linking);
  return `${address} ${rewritten}`;
}

/** The box holds the name without its extension (as Obsidian does); the extension stays. */
export async function renameEntry(path: string, isFolder = false): Promise<void> {
  const [stem, ext] = splitName(baseName(path), isFolder);
  const detail = !isFolder && isNotePath(path) ? await renameDetail(path).catch(() => t('renameExplains')) : t('renameExplains');
  let name = (await promptDialog(t('renameTo'), stem, undefined, detail))?.trim();
  if (!name || name.includes('/')) return;
  // Typing the extension too is not asking for a double one.
  if (ext && name.toLowerCase().endsWith(ext.toLowerCase())) name = name.slice(0, -ext.length);
  try {
    const to = join(parentOf(path), name + ext);
    if (to === path) return;
    const rewritten = await moveTo(path, to);
    toast(countOfNotes('renameRewrote', rewritten));
  } catch (err) {
    toastError(err);
  }
}

/** Drag and drop in the tree: `path` into `folder` ('' is the vault root). */
export async function moveInto(path: string, folder: string): Promise<void> {
  const to = join(folder, baseName(path));
  if (to === path || folder === path || folder.startsWith(path + '/')) return;
  try {
    await moveTo(path, to);
    toast(t('moveInto', { name: baseName(path), folder: folder || t('vaultRootName') }));
  } catch (err) {
    toastError(err);
  }
}

/**
 * Move…: says first what a rename says (the address, the links rewritten); a folder that is not
 * there yet (a typo) is made only when confirmed; the toast carries Undo, which moves it back.
 */
export async function moveEntry(path: string): Promise<void> {
  const detail = isNotePath(path) ? await renameDetail(path).catch(() => t('renameExplains')) : t('renameExplains');
  const answer = await promptDialog(t('moveTo'), parentOf(path), undefined, detail);
  if (answer === null) return;
  const folder = answer.trim().replace(/^\/+|(?<!\/)\/+$/g, '');
  const to = join(folder, baseName(path));
  if (to === path) return;
  const known = folder === '' || entries.get().some((e) => e.kind === 'folder' && sameName(e.path) === sameName(folder));
  const asked = { folder, name: splitName(baseName(path), !isNotePath(path))[0] };
  if (!known && !(await confirmDialog(t('moveNewFolder', asked), { okLabel: t('moveMakeFolder') }))) return;
  try {
    await moveTo(path, to);
    const back = { label: t('undo'), run: () => moveTo(to, path).then(() => toast(t('undone')), toastError) };
    toast(t('moveInto', { name: baseName(path), folder: folder || t('vaultRootName') }), { action: back });
  } catch (err) {
    toastError(err);
  }
}

export async function trashEntry(path: string): Promise<void> {
  // Unpublishing by deletion is easy to miss: the page goes from the site with the note.
  // Read from the note itself: the tree's index may not have caught up with a rename or an edit.
  const published = isNotePath(path) && (await api.note(path).then((d) => isTrue(readKey(d.content, 'publish')), () => false));
  if (!(await confirmDialog(t('confirmDelete', { name: baseName(path) }), { okLabel: t('deleteToTrash'), danger: true, detail: published ? t('trashPublished') : undefined }))) return;
  try {
    await flushAll();
    const entry = await api.remove(path);
    await forgetPath(path);
    await refreshTree();
    toast(t('movedToTrash', { name: baseName(path) }), {
      key: `trash:${entry.id}`,
      action: {
        label: t('undo'),
        run: async () => {
          const back = await api.restoreTrash(entry.id);
          await refreshTree();
          toast(t('restoredTo', { path: back.path }));
        },
      },
    });
  } catch (err) {
    toastError(err);
  }
}

/** A folder's mark: `icon:` of its folder note (`Folder/Folder.md` or `Folder/index.md`). */
export async function folderMark(folder: string): Promise<string> {
  for (const candidate of [join(folder, `${baseName(folder)}.md`), join(folder, 'index.md')]) {
    try {
      const note = await api.note(candidate);
      const icon = readKey(note.content, 'icon');
      if (typeof icon === 'string' && icon) return icon;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  return '📁';
}

/** spec 2.8: a folder title drops a sorting prefix such as `2|`. */
export function folderTitle(folder: string): string {
  return baseName(folder).replace(/^\s*\d+\s*\|\s*/, '');
}

export function tagOf(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^\p{L}\p{N}_/-]/gu, '');
}

/** Where tag page notes live: beside an existing one, else `Topics/`. */
export const TOPICS_FOLDER = 'Topics';

/** spec D.5: writes the tag page with the folder's mark and `folder:`; publishes nothing. */
export async function createTopicFromFolder(folder: string): Promise<void> {
  const tag = (await promptDialog(t('topicName'), tagOf(folderTitle(folder))))?.trim();
  if (!tag) return;
  try {
    const path = `${TOPICS_FOLDER}/${tagOf(tag)}.md`;
    const mark = await folderMark(folder);
    let content = '';
    try {
      content = (await api.note(path)).content;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
    if (!readKey(content, 'title')) content = setKey(content, 'title', folderTitle(folder));
    content = setKey(content, 'collection', true);
    content = setKey(content, 'icon', mark);
    content = setKey(content, 'folder', folder);
    await api.saveNote(path, content);
    revealPath(path);
    await refreshTree();
    toast(t('topicCreated', { path }));
  } catch (err) {
    toastError(err);
  }
}

/** spec D.5: asks with the count, then writes `publish: true` into each note lacking it, one at a time. */
export async function publishFolder(folder: string): Promise<void> {
  try {
    await flushAll();
    const lacking: NoteDoc[] = [];
    for (const path of notesUnder(folder)) {
      const note = await api.note(path);
      if (!isTrue(readKey(note.content, 'publish'))) lacking.push(note);
    }
    if (lacking.length === 0) {
      toast(t('publishNone', { folder: baseName(folder) }));
      return;
    }
    const ok = await confirmDialog(t('publishConfirm', { count: lacking.length, folder: baseName(folder) }), { okLabel: t('publishFolder').replace('…', '') });
    if (!ok) return;
    let done = 0;
    for (const note of lacking) {
      // Carry the mtime read above: a note changed meanwhile is left alone, not overwritten.
      await api.saveNote(note.path, setKey(note.content, 'publish', true), note.mtimeMs, { baseHash: note.hash }).then(
        () => done++,
        (err) => toastError(err),
      );
      if (openNoteAt(note.path)) await openNoteAt(note.path)!.session.recheck();
    }
    toast(t('publishDone', { count: done }));
  } catch (err) {
    toastError(err);
  }
}
