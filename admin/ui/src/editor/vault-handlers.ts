// The editor's pointer and clipboard handlers: Ctrl/Cmd+click follows a
// wikilink (not one in code); an image pasted or dropped into the note is stored in the vault's attachment
// folder and `![[name.png]]` is inserted where it landed.
import { EditorView } from '@codemirror/view';
import { followableLinkAt } from './links.ts';
import { editorTools } from './tools.ts';

/** What the app takes as images, and the size the server accepts (admin/ui/server/images.ts). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml'];
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export class ImageRefused extends Error {}

/** Checks made before anything is sent; the server checks the bytes again. */
export function checkImage(file: File): void {
  if (!IMAGE_TYPES.includes(file.type)) {
    throw new ImageRefused(`${file.name || 'That file'} is not an image this app can add (PNG, JPEG, GIF, WebP, AVIF or SVG).`);
  }
  if (file.size > MAX_IMAGE_BYTES) {
    throw new ImageRefused(`${file.name || 'The image'} is ${(file.size / 1024 / 1024).toFixed(1)} MB; images up to 10 MB can be added.`);
  }
}

function imagesOf(list: DataTransfer | null): File[] {
  return [...(list?.files ?? [])].filter((f) => f.type.startsWith('image/') || f.size > 0);
}

/** Stores each image in the vault and inserts `![[name]]` at `at` (paste, drop, or the note bar's Image button). */
export async function insertImages(view: EditorView, notePath: string, files: File[], at: number): Promise<void> {
  const tools = editorTools.current;
  if (!tools) return;
  let pos = at;
  for (const file of files) {
    try {
      checkImage(file);
      const name = await tools.storeImage(notePath, file);
      // The text may have changed while the image travelled: keep the place inside the note.
      pos = Math.min(pos, view.state.doc.length);
      const insert = `![[${name}]]`;
      view.dispatch({ changes: { from: pos, insert }, selection: { anchor: pos + insert.length }, userEvent: 'input.paste' });
      pos += insert.length;
    } catch (err) {
      tools.fail(err);
    }
  }
}

export function vaultHandlers(notePath: () => string) {
  return EditorView.domEventHandlers({
    mousedown(event, view) {
      if (!(event.ctrlKey || event.metaKey) || event.button !== 0) return false;
      const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
      if (pos === null) return false;
      const link = followableLinkAt(view.state, pos);
      if (!link || !editorTools.current) return false;
      event.preventDefault();
      editorTools.current.followLink(link.target, link.heading, notePath());
      return true;
    },
    paste(event, view) {
      const files = imagesOf(event.clipboardData);
      if (files.length === 0) return false;
      event.preventDefault();
      void insertImages(view, notePath(), files, view.state.selection.main.head);
      return true;
    },
    drop(event, view) {
      const files = imagesOf(event.dataTransfer);
      if (files.length === 0) return false;
      event.preventDefault();
      const at = view.posAtCoords({ x: event.clientX, y: event.clientY }) ?? view.state.selection.main.head;
      void insertImages(view, notePath(), files, at);
      return true;
    },
  });
}
