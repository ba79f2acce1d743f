// A settings refusal in the owner's language: the server's sentence is English, and it names
// why as a stable word (`reason`, with its figures); the Arabic interface says that in Arabic,
// with the field's own label. A reason this table does not know keeps the server's sentence.
import type { ApiError } from '../api.ts';
import { lang, t, type StringKey } from '../i18n.ts';
import type { FieldKey } from './form-model.ts';

/** Each form field's label key, as Settings and Backup & sync show it. */
const LABELS: Record<FieldKey, StringKey> = {
  siteName: 'siteName',
  tagline: 'tagline',
  logo: 'logoName',
  language: 'language',
  homeNote: 'homeNote',
  footer: 'footerName',
  'home.banner': 'bannerName',
  'sync.remoteUrl': 'remoteUrl',
  'sync.branch': 'branch',
  'sync.username': 'username',
  'sync.token': 'token',
};

const AR_REASONS: Record<string, (label: string, body: Record<string, unknown>) => string> = {
  not_text: (label) => `${label}: يجب أن تكون القيمة نصًّا.`,
  too_long: (label, body) => `${label}: يجب ألّا يزيد على ${Number(body.max)} حرفًا.`,
  control_characters: (label) => `${label}: فيه محارف تحكّم غير مسموح بها.`,
  not_one_of: (label) => `${label}: اختر قيمة من القائمة.`,
  not_https_or_vault: (label) => `${label}: يجب أن يكون عنوانًا يبدأ بـ \u2066https://\u2069 أو ملفًّا في الخزنة.`,
  credentials_in_address: (label) => `${label}: يجب ألّا يحمل العنوان اسم مستخدم أو كلمة مرور.`,
  not_a_vault_path: (label) => `${label}: ليس مسارًا داخل الخزنة.`,
  not_a_language: (label, body) => `${label}: «\u2066${String(body.value ?? '')}\u2069» ليست لغة يقدّمها الموقع؛ اختر واحدة من القائمة، مثل العربية (ar) أو English (en).`,
};

/** The sentence shown beside `field` for the server's refusal `err`. */
export function refusalSentence(err: ApiError, field: FieldKey): string {
  if (lang.get() !== 'ar') return err.message;
  const reason = typeof err.body.reason === 'string' ? err.body.reason : '';
  const say = Object.hasOwn(AR_REASONS, reason) ? AR_REASONS[reason] : undefined;
  const label = Object.hasOwn(LABELS, field) ? t(LABELS[field]!) : null;
  return say && label ? say(label, err.body) : err.message;
}
