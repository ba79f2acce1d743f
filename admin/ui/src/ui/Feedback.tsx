// Draws the toasts and the confirm / prompt dialogs asked for through feedback.ts.
import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { useStore } from '../store.ts';
import { dialog, dismissToast, toasts, toastError, type Dialog } from './feedback.ts';
import { Modal } from './Modal.tsx';
import { Sentence } from './Sentence.tsx';

export function Toasts() {
  const list = useStore(toasts);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {list.map((item) => (
        <div class={`toast ${item.kind}`} key={item.id}>
          <span>
            <Sentence text={item.message} />
          </span>
          {item.action && (
            <button
              type="button"
              onClick={() => {
                dismissToast(item.id);
                Promise.resolve(item.action!.run()).catch(toastError);
              }}
            >
              {item.action.label}
            </button>
          )}
          <button type="button" class="icon" aria-label={t('close')} onClick={() => dismissToast(item.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

function PromptBody({ d }: { d: Extract<Dialog, { kind: 'prompt' }> }) {
  const [value, setValue] = useState(d.value);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        d.resolve(value);
      }}
    >
      {d.detail && (
        <p class="dialog-detail">
          <Sentence text={d.detail} />
        </p>
      )}
      <input class="wide" value={value} autofocus aria-label={d.message} onInput={(e) => setValue((e.currentTarget as HTMLInputElement).value)} />
      <div class="actions">
        <button type="button" onClick={() => d.resolve(null)}>
          {t('cancel')}
        </button>
        <button type="submit" class="primary">
          {d.okLabel ?? t('ok')}
        </button>
      </div>
    </form>
  );
}

export function Dialogs() {
  const d = useStore(dialog);
  if (!d) return null;
  if (d.kind === 'prompt') {
    return (
      <Modal title={d.message} onClose={() => d.resolve(null)}>
        <PromptBody d={d} />
      </Modal>
    );
  }
  if (d.kind === 'choice') {
    return (
      <Modal title={d.message} onClose={() => d.resolve(null)}>
        <div class="actions">
          {d.choices.map((c) => (
            <button type="button" class={c.primary ? 'primary' : ''} autofocus={c.primary} onClick={() => d.resolve(c.id)}>
              {c.label}
            </button>
          ))}
        </div>
      </Modal>
    );
  }
  return (
    <Modal title={d.message} onClose={() => d.resolve(false)}>
      {d.detail && (
        <p class="dialog-detail" data-testid="dialog-detail">
          <Sentence text={d.detail} />
        </p>
      )}
      <div class="actions">
        <button type="button" autofocus={d.keepFocus} onClick={() => d.resolve(false)}>
          {d.cancelLabel ?? t('cancel')}
        </button>
        <button type="button" class={d.danger ? 'primary danger' : 'primary'} autofocus={!d.keepFocus} onClick={() => d.resolve(true)}>
          {d.okLabel ?? t('ok')}
        </button>
      </div>
    </Modal>
  );
}
