// What a sync pass did, said in the interface's language from the words the server sends with
// its English sentence (admin/sync/last-result.ts SyncWords): one key and its figures a sentence;
// git's own line stays as git wrote it. Merged into i18n.ts and i18n-ar.ts.
import type { Text } from './i18n.ts';

export const enSync = {
  sync_failed: 'Sync failed.',
  sync_failed_because: 'Sync failed: {error}',
  sync_git_said: 'Git said: {line}',
  sync_remote_said: 'The remote said:\n{lines}',
  sync_hint_host_unknown: 'The remote’s host name was not found: check the address.',
  sync_hint_no_answer: 'The remote did not answer: check its address, and that this server can reach it.',
  sync_hint_credentials: 'The remote refused the credentials: check the username and the access token (or the SSH key).',
  sync_hint_no_repository: 'There is no repository at that address: check it.',
  sync_hint_certificate: 'This server does not trust the remote’s certificate (a private authority is named with GIT_SSL_CAINFO).',
  sync_hint_host_key: 'The remote’s SSH host key is not the one this server knows: check it before trusting it.',
  sync_commits: { one: '1 commit', other: '{count} commits' },
  sync_pulled: { one: 'Pulled 1 commit from {host}.', other: 'Pulled {count} commits from {host}.' },
  sync_diverged: 'This vault and {host} have diverged ({here} here, {there} there); nothing was committed or pushed. Merge them by hand with git.',
  sync_pull_into_data_dir:
    "{host}'s commits change {path}, in this server's data directory; nothing was pulled, committed or pushed. git would overwrite the server's own files (its password and token among them) with them: take them out of the remote's history, or move the data directory out of the vault.",
  sync_pull_clash:
    "{host} has commits that change what was edited here since the last sync ({files}); nothing was pulled, committed or pushed, and no text was lost. Merge them by hand with git: commit here, then merge {host}'s branch.",
  sync_committed_no_remote: 'Committed the vault; no remote is set, so nothing was pushed.',
  sync_nothing_no_remote: 'Nothing to commit; no remote is set.',
  sync_nothing_to_push: 'Nothing to commit or push.',
  sync_remote_ahead: {
    one: '{host} has 1 commit this vault lacks; turn on Pull first to bring them in.',
    other: '{host} has {count} commits this vault lacks; turn on Pull first to bring them in.',
  },
  sync_push_refused: '{host} has commits this vault lacks, so the push was refused (never forced). Turn on Pull first to bring them in.',
  sync_push_refused_kept: '{host} has commits this vault lacks, so the push was refused (never forced). The new commit is kept locally. Turn on Pull first to bring them in.',
  sync_pushed: 'Pushed to {host} ({branch}).',
  sync_committed_pushed: 'Committed and pushed to {host} ({branch}).',
  sync_nested_repository: '{path}/ is its own git repository: its notes are not in this backup.',
};

export const arSync: Partial<Record<keyof typeof enSync, Text>> = {
  sync_failed: 'فشلت المزامنة.',
  sync_failed_because: 'فشلت المزامنة: {error}',
  sync_git_said: 'قال git: {line}',
  sync_remote_said: 'قال المستودع البعيد:\n{lines}',
  sync_hint_host_unknown: 'لم يُعثر على اسم مضيف المستودع البعيد: تحقّق من العنوان.',
  sync_hint_no_answer: 'لم يُجب المستودع البعيد: تحقّق من عنوانه، ومن أن هذا الخادم يصل إليه.',
  sync_hint_credentials: 'رفض المستودع البعيد بيانات الدخول: تحقّق من اسم المستخدم ورمز الوصول (أو مفتاح SSH).',
  sync_hint_no_repository: 'لا مستودع في هذا العنوان: تحقّق منه.',
  sync_hint_certificate: 'لا يثق هذا الخادم بشهادة المستودع البعيد (تُسمّى جهة إصدار خاصة بالمتغير GIT_SSL_CAINFO).',
  sync_hint_host_key: 'مفتاح SSH لمضيف المستودع البعيد ليس المفتاح الذي يعرفه هذا الخادم: تحقّق منه قبل أن تثق به.',
  sync_commits: { zero: 'لا إيداعات', one: 'إيداع واحد', two: 'إيداعان', few: '{count} إيداعات', many: '{count} إيداعًا', other: '{count} إيداع' },
  sync_pulled: {
    zero: 'لم يُسحب أي إيداع من {host}.',
    one: 'سُحب إيداع واحد من {host}.',
    two: 'سُحب إيداعان من {host}.',
    few: 'سُحبت {count} إيداعات من {host}.',
    many: 'سُحب {count} إيداعًا من {host}.',
    other: 'سُحب {count} إيداع من {host}.',
  },
  sync_diverged: 'تفرّع سجلّا هذه الخزنة و{host} ({here} هنا، و{there} هناك)؛ لم يُودَع ولم يُدفع شيء. ادمجهما يدويًا بـ git.',
  sync_pull_into_data_dir:
    'إيداعات {host} تغيّر {path} في مجلد بيانات هذا الخادم؛ لم يُسحب ولم يُودَع ولم يُدفع شيء. كان git سيكتب بها فوق ملفات الخادم نفسه (ومنها كلمة مروره ورمز الوصول): أخرجها من سجل المستودع البعيد، أو انقل مجلد البيانات إلى خارج الخزنة.',
  sync_pull_clash:
    'في {host} إيداعات تغيّر ما عُدِّل هنا منذ آخر مزامنة ({files})؛ لم يُسحب ولم يُودَع ولم يُدفع شيء، ولم يضع أي نص. ادمجها يدويًا بـ git: أودِع هنا، ثم ادمج فرع {host}.',
  sync_committed_no_remote: 'أُودعت الخزنة؛ لا مستودع بعيد معيَّن، فلم يُدفع شيء.',
  sync_nothing_no_remote: 'لا شيء للإيداع؛ لا مستودع بعيد معيَّن.',
  sync_nothing_to_push: 'لا شيء للإيداع أو الدفع.',
  sync_remote_ahead: {
    zero: 'لا ينقص هذه الخزنة أي إيداع من {host}.',
    one: 'في {host} إيداع واحد ينقص هذه الخزنة؛ شغّل «اسحب أولًا» لجلبه.',
    two: 'في {host} إيداعان ينقصان هذه الخزنة؛ شغّل «اسحب أولًا» لجلبهما.',
    few: 'في {host} {count} إيداعات تنقص هذه الخزنة؛ شغّل «اسحب أولًا» لجلبها.',
    many: 'في {host} {count} إيداعًا تنقص هذه الخزنة؛ شغّل «اسحب أولًا» لجلبها.',
    other: 'في {host} {count} إيداع تنقص هذه الخزنة؛ شغّل «اسحب أولًا» لجلبها.',
  },
  sync_push_refused: 'في {host} إيداعات تنقص هذه الخزنة، فرُفض الدفع (ولا يُفرض أبدًا). شغّل «اسحب أولًا» لجلبها.',
  sync_push_refused_kept: 'في {host} إيداعات تنقص هذه الخزنة، فرُفض الدفع (ولا يُفرض أبدًا). بقي الإيداع الجديد محليًا. شغّل «اسحب أولًا» لجلبها.',
  sync_pushed: 'دُفع إلى {host} ({branch}).',
  sync_committed_pushed: 'أُودع ودُفع إلى {host} ({branch}).',
  sync_nested_repository: '{path}/ مستودع git مستقل: ملاحظاته ليست في هذه النسخة الاحتياطية.',
};
