// Change banner (spec D.3): paste an https URL, pick an image attachment of the
// vault, or upload one (written into Attachments/). Saved as `home.banner`.
import { useState } from 'preact/hooks';
import { api, fileUrl } from '../api.ts';
import { t } from '../i18n.ts';
import { patchSettings } from '../settings/settings-model.ts';
import { Store, useStore } from '../store.ts';
import { entries, isImage, refreshTree } from '../tree/model.ts';
import { toast } from '../ui/feedback.ts';
import { Modal } from '../ui/Modal.tsx';

const open = new Store<boolean>(false);
/** Bumped after a change, so the preview reloads. */
export const bannerStamp = new Store<number>(0);

export function openBannerDialog(): void {
  open.set(true);
}

const UPLOAD_FOLDER = 'Attachments';
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

async function toBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function BannerDialog() {
  const isOpen = useStore(open);
  const list = useStore(entries);
  const [url, setUrl] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!isOpen) return null;
  const images = list.filter((e) => e.kind === 'attachment' && isImage(e.path));
  // One 'Use this banner': a pasted https URL wins over a picked attachment.
  const typedUrl = /^https:\/\//i.test(url.trim()) ? url.trim() : null;
  const chosen = typedUrl ?? picked;
  const close = () => {
    open.set(false);
    setError(null);
    setUrl('');
    setPicked(null);
  };
  const pick = (p: string) => {
    setPicked(p);
    setUrl('');
  };
  const save = async (banner: string | null) => {
    setBusy(true);
    setError(null);
    try {
      await patchSettings({ home: { banner } });
      bannerStamp.update((n) => n + 1);
      toast(t('bannerSaved'));
      close();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.size > MAX_UPLOAD_BYTES || !isImage(file.name)) {
      setError(`${file.name}: ${t('upload')} (≤ 10 MB, png/jpg/gif/webp/avif/svg)`);
      return;
    }
    setBusy(true);
    try {
      const safeName = file.name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-');
      const answer = await api.uploadAttachment(`${UPLOAD_FOLDER}/${safeName}`, await toBase64(file));
      await refreshTree();
      pick(answer.path);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={t('bannerTitle')} onClose={close} wide>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (url.trim()) void save(url.trim());
        }}
      >
        <label>
          <span>{t('pasteUrl')}</span>
          <input type="url" name="bannerUrl" placeholder="https://" value={url} onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)} />
        </label>
      </form>
      <h3>{t('pickAttachment')}</h3>
      {images.length === 0 ? (
        <p class="muted">{t('noAttachments')}</p>
      ) : (
        <ul class="image-grid">
          {images.map((img) => (
            <li>
              <button type="button" class={picked === img.path ? 'picked' : ''} aria-pressed={picked === img.path} onClick={() => pick(img.path)} title={img.path}>
                <img src={fileUrl(img.path)} alt={img.path} loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <label class="upload">
        <span>{t('upload')}</span>
        <input type="file" accept="image/*" name="bannerUpload" disabled={busy} onChange={(e) => void upload((e.currentTarget as HTMLInputElement).files?.[0])} />
      </label>
      {error && (
        <p class="error-line" role="alert">
          {error}
        </p>
      )}
      <div class="actions" data-testid="banner-actions">
        <button type="button" onClick={() => void save(null)} disabled={busy}>
          {t('removeBanner')}
        </button>
        <button type="button" onClick={close}>
          {t('cancel')}
        </button>
        <button type="button" class="primary" disabled={busy || !chosen} onClick={() => chosen && void save(chosen)}>
          {t('useThis')}
        </button>
      </div>
    </Modal>
  );
}
