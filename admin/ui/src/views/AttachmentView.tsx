// An attachment from the tree: an image is shown, any other file is named with a
// link to its bytes.
import { fileUrl } from '../api.ts';
import { Store, useStore } from '../store.ts';
import { isImage } from '../tree/model.ts';
import { showView } from '../views.ts';
import { VaultPath } from '../ui/VaultPath.tsx';

export const shownAttachment = new Store<string | null>(null);

export function showAttachment(path: string): void {
  shownAttachment.set(path);
  showView('attachment');
}

export function AttachmentView() {
  const path = useStore(shownAttachment);
  if (!path) return null;
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (
    <section class="page attachment-view" aria-label={name} data-testid="attachment-view">
      <div class="page-head">
        <h1>{name}</h1>
      </div>
      <p class="muted">
        <VaultPath path={path} />
      </p>
      {isImage(path) ? (
        <img class="attachment-image" src={fileUrl(path)} alt={name} />
      ) : (
        <p>
          <a href={fileUrl(path)} download={name}>
            {name}
          </a>
        </p>
      )}
    </section>
  );
}
