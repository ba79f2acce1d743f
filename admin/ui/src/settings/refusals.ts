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
  // The backup's remote URL and branch, as the git code refuses them (admin/git/remote-url.ts).
  remote_required: (label) => `${label}: مطلوب.`,
  remote_too_long: (label, body) => `${label}: يجب ألّا يزيد على ${Number(body.max)} حرفًا.`,
  remote_control_characters: (label) => `${label}: لا يجوز أن يحوي مسافات أو أسطرًا جديدة أو محارف تحكّم.`,
  remote_not_ascii: (label) => `${label}: يقبل محارف ASCII فقط (رمّز الباقي بعلامة %).`,
  remote_dash: (label) => `${label}: لا يجوز أن يبدأ العنوان أو المضيف أو اسم المستخدم أو جزء من المسار بـ «-».`,
  remote_shell_characters: (label) => `${label}: فيه محارف صدفة (shell) غير مسموح بها.`,
  remote_transport_helper: (label) => `${label}: أدوات النقل (مثل \u2066ext::\u2069) غير مسموح بها؛ استعمل عنوان \u2066https://\u2069 أو SSH.`,
  remote_scheme: (label, body) => `${label}: المخطط \u2066${String(body.scheme ?? '')}://\u2069 غير مسموح به؛ استعمل \u2066https://\u2069 أو SSH.`,
  remote_local_path: (label) => `${label}: استعمل عنوان \u2066https://\u2069 أو SSH (مثل \u2066git@host:owner/repo.git\u2069)، لا مسارًا محليًا.`,
  remote_no_host: (label) => `${label}: لا مضيف في العنوان.`,
  remote_bad_host: (label, body) => `${label}: «\u2066${String(body.host ?? '')}\u2069» ليس اسم مضيف صالحًا.`,
  remote_credentials: (label) => `${label}: لا يجوز أن يحمل العنوان كلمة مرور أو رمز وصول؛ ضع الرمز في حقل رمز الوصول.`,
  remote_token: (label) => `${label}: اسم المستخدم في العنوان يشبه رمز وصول؛ ضع الرمز في حقل رمز الوصول.`,
  remote_bad_user: (label) => `${label}: اسم المستخدم فارغ أو فيه محارف لا يقبلها git بأمان.`,
  remote_bad_escape: (label) => `${label}: فيه ترميز % مشوّه.`,
  remote_no_repository: (label) => `${label}: لا يسمّي العنوان مستودعًا.`,
  remote_bad_path: (label) => `${label}: في مسار المستودع محارف لا يقبلها git بأمان.`,
  remote_malformed: (label) => `${label}: العنوان مشوّه.`,
  remote_bad_port: (label) => `${label}: يجب أن يكون المنفذ رقمًا من 1 إلى 65535.`,
  branch_required: (label) => `${label}: اسم الفرع مطلوب.`,
  branch_too_long: (label, body) => `${label}: يجب ألّا يزيد على ${Number(body.max)} حرفًا.`,
  branch_dash: (label) => `${label}: ليس اسم فرع صالحًا؛ لا يبدأ بـ «-».`,
  branch_reserved: (label, body) => `${label}: ليس اسم فرع صالحًا؛ «\u2066${String(body.value ?? '')}\u2069» محجوز.`,
  branch_characters: (label) => `${label}: ليس اسم فرع صالحًا؛ المسافات و\u2066~ ^ : ? * [ \\\u2069 غير مسموح بها.`,
  branch_dots: (label) => `${label}: ليس اسم فرع صالحًا؛ «..» غير مسموح بها.`,
  branch_at_brace: (label) => `${label}: ليس اسم فرع صالحًا؛ «@{» غير مسموح بها.`,
  branch_slashes: (label) => `${label}: ليس اسم فرع صالحًا؛ الشرطات المائلة تفصل بين أجزاء غير فارغة.`,
  branch_dot_end: (label) => `${label}: ليس اسم فرع صالحًا؛ لا ينتهي بـ «.».`,
  branch_part_dot: (label) => `${label}: ليس اسم فرع صالحًا؛ لا يبدأ جزء منه بـ «.».`,
  branch_lock: (label) => `${label}: ليس اسم فرع صالحًا؛ لا ينتهي جزء منه بـ «\u2066.lock\u2069».`,
};

/** The reasons this table says in Arabic (a test holds every reason the git code gives among them). */
export const ARABIC_REASONS: readonly string[] = Object.keys(AR_REASONS);

function arabicSentence(field: string, reason: string, body: Record<string, unknown>): { label: string; sentence: string } | null {
  if (lang.get() !== 'ar') return null;
  const say = Object.hasOwn(AR_REASONS, reason) ? AR_REASONS[reason] : undefined;
  const label = Object.hasOwn(LABELS, field) ? t(LABELS[field as FieldKey]!) : null;
  return say && label ? { label, sentence: say(label, body) } : null;
}

/** The sentence shown beside `field` for the server's refusal `err`. */
export function refusalSentence(err: ApiError, field: FieldKey): string {
  const reason = typeof err.body.reason === 'string' ? err.body.reason : '';
  return arabicSentence(field, reason, err.body)?.sentence ?? err.message;
}

/** Why a saved setting is refused (a sync pass names it), without the field's label; null when English or unknown. */
export function fieldProblem(field: string, reason: string, body: Record<string, unknown>): string | null {
  const said = arabicSentence(field, reason, body);
  if (!said) return null;
  return said.sentence.startsWith(`${said.label}: `) ? said.sentence.slice(said.label.length + 2) : said.sentence;
}
