// Toasts and modal dialogs as promises, so any module can ask the user something
// without knowing where the dialog is drawn.
import { Store } from '../store.ts';

export interface Toast {
  id: number;
  /** Names what the toast is about, so it can be taken back when that changes (a trash entry restored). */
  key?: string;
  message: string;
  kind: 'info' | 'error';
  action?: { label: string; run: () => void | Promise<void> };
}

export const toasts = new Store<Toast[]>([]);
let nextId = 1;

export function toast(message: string, options: { kind?: Toast['kind']; action?: Toast['action']; ms?: number; key?: string } = {}): void {
  const item: Toast = { id: nextId++, key: options.key, message, kind: options.kind ?? 'info', action: options.action };
  toasts.update((list) => [...list.filter((t) => !item.key || t.key !== item.key).slice(-3), item]);
  setTimeout(() => dismissToast(item.id), options.ms ?? (options.action ? 10_000 : 4_000));
}

export function dismissToast(id: number): void {
  toasts.update((list) => list.filter((t) => t.id !== id));
}

/** Takes back the toasts about `key` (their action no longer applies). */
export function dismissToastsAbout(key: string): void {
  toasts.update((list) => list.filter((t) => t.key !== key));
}

export function toastError(err: unknown): void {
  toast(err instanceof Error ? err.message : String(err), { kind: 'error', ms: 8000 });
}

export interface Choice {
  id: string;
  label: string;
  primary?: boolean;
}

export type Dialog =
  | { kind: 'confirm'; message: string; detail?: string; okLabel?: string; cancelLabel?: string; danger?: boolean; keepFocus?: boolean; resolve: (ok: boolean) => void }
  | { kind: 'choice'; message: string; choices: Choice[]; resolve: (id: string | null) => void }
  | { kind: 'prompt'; message: string; detail?: string; value: string; okLabel?: string; resolve: (value: string | null) => void };

export const dialog = new Store<Dialog | null>(null);

/**
 * `detail`: a sentence under the question saying what the answer will do. `keepFocus`: the
 * focus starts on the answer that keeps things as they are (Enter must not lose work).
 */
export function confirmDialog(
  message: string,
  options: { okLabel?: string; cancelLabel?: string; danger?: boolean; detail?: string; keepFocus?: boolean } = {},
): Promise<boolean> {
  return new Promise((resolve) => {
    dialog.set({
      kind: 'confirm',
      message,
      ...options,
      resolve: (ok) => {
        dialog.set(null);
        resolve(ok);
      },
    });
  });
}

export function promptDialog(message: string, value = '', okLabel?: string, detail?: string): Promise<string | null> {
  return new Promise((resolve) => {
    dialog.set({
      kind: 'prompt',
      message,
      detail,
      value,
      okLabel,
      resolve: (answer) => {
        dialog.set(null);
        resolve(answer);
      },
    });
  });
}

/** A question with several answers; null when dismissed (Escape, the backdrop). */
export function choiceDialog(message: string, choices: Choice[]): Promise<string | null> {
  return new Promise((resolve) => {
    dialog.set({
      kind: 'choice',
      message,
      choices,
      resolve: (id) => {
        dialog.set(null);
        resolve(id);
      },
    });
  });
}
