// The inputs of the one settings form model (form-model.ts): each shows the value in
// effect, where it comes from, whether it holds an unsaved edit, and the server's
// refusal of it. Used by Settings and by Backup & sync alike.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { useStore } from '../store.ts';
import type { Settings } from '../types.ts';
import { toast } from '../ui/feedback.ts';
import { dirtyKeys, discard, drafts, ENV_NAMES, saveFields, useField, type FieldKey, type FieldState } from './form-model.ts';

/** Where a value in effect comes from, in the owner's words (the variable's name only in the tooltip). */
function sourceSentence(f: FieldState<unknown>, valueName: string): string {
  if (f.source === 'environment') return t('fromEnvHint');
  if (f.source === 'settings') return t('fromSettings');
  return valueName ? t('fromDefaultValue', { value: valueName }) : t('fromDefaultNone');
}

/**
 * Under a field: where its value comes from (for the fields an environment variable can
 * fill: the server's configuration, saved settings or the default), its unsaved mark and
 * its refusal, beside the field.
 */
export function FieldMeta({ f, field, hint, errorId, valueName }: { f: FieldState<unknown>; field: FieldKey; hint?: string; errorId?: string; valueName?: string }) {
  const env = ENV_NAMES[field];
  const source = env ? sourceSentence(f, valueName ?? String(f.effective ?? '')) : null;
  return (
    <>
      {hint && <small class="muted">{hint}</small>}
      {(source || f.dirty) && (
        <small class={`field-source source-${f.source}`} data-source={f.source} title={env}>
          {source}
          {f.dirty && (
            <span class="unsaved-mark" data-testid="unsaved-mark">
              {source ? ' · ' : ''}
              {t('unsavedField')}
            </span>
          )}
        </small>
      )}
      <ChangedElsewhere f={f} field={field} valueName={valueName} />
      <FieldError f={f} field={field} id={errorId} />
    </>
  );
}

/**
 * A draft over a value changed on the server since it was begun (another tab, another server
 * through the settings mirror): says what the value became, and offers it instead of the draft.
 */
export function ChangedElsewhere({ f, field, valueName }: { f: FieldState<unknown>; field: FieldKey; valueName?: string }) {
  if (f.changedTo === undefined) return null;
  const value = valueName ?? (typeof f.changedTo === 'string' || typeof f.changedTo === 'number' ? String(f.changedTo) : '');
  return (
    <small class="changed-elsewhere block" data-testid="changed-elsewhere" data-changed-for={field} role="status">
      {value ? t('changedElsewhere', { value: `\u2068${value}\u2069` }) : t('changedElsewhereBare')}{' '}
      <button type="button" class="link-button" onClick={() => discard([field])}>
        {t('takeServerValue')}
      </button>
    </small>
  );
}

/** The server's refusal of a field, beside it. */
export function FieldError({ f, field, id }: { f: FieldState<unknown>; field: FieldKey; id?: string }) {
  if (!f.error) return null;
  return (
    <small id={id} data-testid={id ?? 'field-error'} data-error-for={field} class="error-line" role="alert">
      {f.error}
    </small>
  );
}

export function TextField({ s, field, label, hint, list, type, placeholder, errorTestId, inputMode }: {
  s: Settings;
  field: FieldKey;
  label: string;
  hint?: string;
  list?: string;
  type?: string;
  placeholder?: string;
  errorTestId?: string;
  inputMode?: 'url' | 'text';
}) {
  const f = useField<string>(s, field, '');
  const name = field.slice(field.lastIndexOf('.') + 1);
  return (
    <label class={f.dirty ? 'dirty' : ''} data-field={field}>
      <span>{label}</span>
      <input
        name={name}
        type={type ?? 'text'}
        inputMode={inputMode}
        value={String(f.value ?? '')}
        list={list}
        placeholder={placeholder}
        spellcheck={false}
        autoComplete="off"
        aria-invalid={Boolean(f.error)}
        onInput={(e) => f.set((e.currentTarget as HTMLInputElement).value)}
      />
      <FieldMeta f={f as FieldState<unknown>} field={field} hint={hint} errorId={errorTestId} />
    </label>
  );
}

export function CheckField({ s, field, label, fallback = false, role, testId }: { s: Settings; field: FieldKey; label: string; fallback?: boolean; role?: 'switch'; testId?: string }) {
  const f = useField<boolean>(s, field, fallback);
  const name = field.slice(field.lastIndexOf('.') + 1);
  return (
    <label class={`check${f.dirty ? ' dirty' : ''}`} data-field={field}>
      <input type="checkbox" role={role} name={name} data-testid={testId} checked={Boolean(f.value)} onChange={(e) => f.set((e.currentTarget as HTMLInputElement).checked)} />
      <span>
        {label}
        {f.dirty && (
          <small class="unsaved-mark block" data-testid="unsaved-mark">
            {t('unsavedField')}
          </small>
        )}
        <ChangedElsewhere f={f as FieldState<unknown>} field={field} />
        <FieldError f={f as FieldState<unknown>} field={field} />
      </span>
    </label>
  );
}

export function SelectField<T extends string | number>({ s, field, label, options, fallback }: {
  s: Settings;
  field: FieldKey;
  label: string;
  options: [T, string][];
  fallback: T;
}) {
  const f = useField<T>(s, field, fallback);
  const name = field.slice(field.lastIndexOf('.') + 1);
  const numeric = typeof fallback === 'number';
  // A saved value the list lacks is still shown as it is, never silently replaced.
  const shown: [T, string][] = options.some(([v]) => String(v) === String(f.value)) ? options : [...options, [f.value, String(f.value)]];
  const valueName = shown.find(([v]) => String(v) === String(f.effective))?.[1];
  return (
    <label class={f.dirty ? 'dirty' : ''} data-field={field}>
      <span>{label}</span>
      <select name={name} value={String(f.value)} aria-invalid={Boolean(f.error)} onChange={(e) => {
        const raw = (e.currentTarget as HTMLSelectElement).value;
        f.set((numeric ? Number(raw) : raw) as T);
      }}>
        {shown.map(([value, text]) => (
          <option value={String(value)}>{text}</option>
        ))}
      </select>
      <FieldMeta f={f as FieldState<unknown>} field={field} valueName={valueName} />
    </label>
  );
}

export function RadioField<T extends string>({ s, field, legend, options, fallback }: { s: Settings; field: FieldKey; legend: string; options: [T, string][]; fallback: T }) {
  const f = useField<T>(s, field, fallback);
  return (
    <fieldset class={f.dirty ? 'dirty' : ''} data-field={field}>
      <legend>{legend}</legend>
      {options.map(([value, text]) => (
        <label class="check">
          <input type="radio" name={field} value={value} checked={f.value === value} onChange={() => f.set(value)} />
          <span>{text}</span>
        </label>
      ))}
      {f.dirty && <small class="unsaved-mark">{t('unsavedField')}</small>}
      <ChangedElsewhere f={f as FieldState<unknown>} field={field} valueName={options.find(([v]) => v === f.changedTo)?.[1]} />
      <FieldError f={f as FieldState<unknown>} field={field} />
    </fieldset>
  );
}

/** The one Save of a form: counts its drafts, saves them in one PATCH, or discards them. */
export function SaveBar({ inForm, label, testId, children, onSaved }: { inForm: (key: FieldKey) => boolean; label?: string; testId: string; children?: ComponentChildren; onSaved?: () => void }) {
  useStore(drafts);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const keys = dirtyKeys(inForm);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await saveFields(dirtyKeys(inForm));
      toast(t('settingsSaved'));
      onSaved?.();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class={`save-bar${keys.length ? ' has-drafts' : ''}`} data-testid={testId}>
      <span class="grow" role="status">
        {keys.length ? t('unsavedCount', { count: keys.length }) : t('allSaved')}
      </span>
      {children}
      {error && (
        <span class="error-line" role="alert">
          {error}
        </span>
      )}
      <button type="button" disabled={busy || keys.length === 0} onClick={() => discard(keys)}>
        {t('discard')}
      </button>
      <button type="button" class="primary" disabled={busy || keys.length === 0} onClick={() => void save()}>
        {label ?? t('save')}
      </button>
    </div>
  );
}
