// The blog frame's words in the interface language, and dates as spec D.1 wants
// them: month names from the interface language, digits from BLOG_LOCALE.
import { primaryLanguage } from '../../shared/note/language.ts';

const EN = {
  home: 'Home',
  skipToContent: 'Skip to content',
  more: 'More',
  topics: 'Topics',
  related: 'Related',
  previous: 'Previous',
  next: 'Next',
  olderPosts: 'Older posts',
  newerPosts: 'Newer posts',
  share: 'Share',
  copyLink: 'Copy link',
  email: 'Email',
  words: 'words',
  minRead: 'min read',
  signIn: 'Sign in',
  edit: 'Edit',
  rss: 'RSS',
  poweredBy: 'Published with vault-service',
  notFoundTitle: 'Not found',
  notFoundText: 'There is nothing at this address.',
  backHome: 'Back to the home page',
  publishedNotes: (n: string, count: number) => (count === 1 ? `${n} published note` : `${n} published notes`),
  backToTop: 'Back to top',
  topic: 'Topic',
  collection: 'Collection',
  category: 'Category',
  alsoIn: 'Also in',
  counterpart: 'See also',
  noPosts: 'Nothing published here yet.',
  page: 'Page',
  comments: 'Comments',
  mentions: 'Mentions',
  latest: 'Latest',
  // Comments and mentions (CONTRACT §8).
  commentCount: (n: string, count: number) => (count === 1 ? `${n} comment` : `${n} comments`),
  mostDiscussed: 'Most discussed',
  noComments: 'No comments yet. Be the first.',
  leaveComment: 'Leave a comment',
  commentName: 'Name',
  commentEmail: 'Email (optional, never shown)',
  commentWebsite: 'Website (optional)',
  commentBody: 'Comment',
  commentHint: 'Markdown works, HTML does not; at most 3 links.',
  commentTrap: 'Leave this field empty',
  commentSubmit: 'Post comment',
  commentSending: 'Sending…',
  commentPending: 'Thank you: your comment is awaiting moderation.',
  commentApproved: 'Thank you: your comment is published.',
  commentFailed: 'Your comment could not be sent:',
  reply: 'Reply',
  cancelReply: 'Cancel reply',
  replyingTo: 'Replying to',
  siteAuthor: 'Author',
  likes: (n: string, count: number) => (count === 1 ? `${n} like` : `${n} likes`),
  reposts: (n: string, count: number) => (count === 1 ? `${n} repost` : `${n} reposts`),
  mentionReplies: 'Replies from other sites',
  mentionedIn: 'Mentioned in',
};

type Strings = typeof EN;

const AR: Strings = {
  home: 'الرئيسية',
  skipToContent: 'انتقل إلى المحتوى',
  more: 'المزيد',
  topics: 'المواضيع',
  related: 'ذو صلة',
  previous: 'السابق',
  next: 'التالي',
  olderPosts: 'تدوينات أقدم',
  newerPosts: 'تدوينات أحدث',
  share: 'شارك',
  copyLink: 'انسخ الرابط',
  email: 'بريد',
  words: 'كلمة',
  minRead: 'دقائق قراءة',
  signIn: 'تسجيل الدخول',
  edit: 'تحرير',
  rss: 'RSS',
  poweredBy: 'نُشر باستخدام vault-service',
  notFoundTitle: 'غير موجود',
  notFoundText: 'لا شيء في هذا العنوان.',
  backHome: 'العودة إلى الصفحة الرئيسية',
  publishedNotes: (n: string) => `${n} ملاحظة منشورة`,
  backToTop: 'العودة إلى الأعلى',
  topic: 'موضوع',
  collection: 'مجموعة',
  category: 'تصنيف',
  alsoIn: 'متوفر أيضاً في',
  counterpart: 'انظر أيضاً',
  noPosts: 'لم يُنشر شيء هنا بعد.',
  page: 'صفحة',
  comments: 'التعليقات',
  mentions: 'الإشارات',
  latest: 'الأحدث',
  commentCount: (n: string, count: number) => (count === 1 ? 'تعليق واحد' : count === 2 ? 'تعليقان' : count <= 10 ? `${n} تعليقات` : `${n} تعليقًا`),
  mostDiscussed: 'الأكثر نقاشًا',
  noComments: 'لا تعليقات بعد. كن أول من يعلّق.',
  leaveComment: 'اترك تعليقًا',
  commentName: 'الاسم',
  commentEmail: 'البريد الإلكتروني (اختياري، لا يُعرض أبدًا)',
  commentWebsite: 'الموقع (اختياري)',
  commentBody: 'التعليق',
  commentHint: 'يمكنك استخدام Markdown دون HTML، وثلاثة روابط على الأكثر.',
  commentTrap: 'اترك هذا الحقل فارغًا',
  commentSubmit: 'أرسل التعليق',
  commentSending: 'جارٍ الإرسال…',
  commentPending: 'شكرًا لك: تعليقك بانتظار المراجعة.',
  commentApproved: 'شكرًا لك: نُشر تعليقك.',
  commentFailed: 'تعذّر إرسال تعليقك:',
  reply: 'رُدّ',
  cancelReply: 'إلغاء الرد',
  replyingTo: 'ردًا على',
  siteAuthor: 'الكاتب',
  likes: (n: string, count: number) => (count === 1 ? 'إعجاب واحد' : `${n} إعجابات`),
  reposts: (n: string, count: number) => (count === 1 ? 'إعادة نشر واحدة' : `${n} إعادات نشر`),
  mentionReplies: 'ردود من مواقع أخرى',
  mentionedIn: 'أُشير إليها في',
};

export function stringsFor(language: string): Strings {
  return primaryLanguage(language) === 'ar' ? AR : EN;
}

export type { Strings };

/**
 * The numbering system for BLOG_LOCALE: a `-u-nu-` extension wins; Arabic
 * locales give Arabic-Indic digits; everything else its locale's default.
 */
export function numberingSystem(blogLocale: string): string {
  const explicit = /-u(?:-[a-z0-9]{2,8})*?-nu-([a-z0-9]{3,8})/i.exec(blogLocale);
  if (explicit) return explicit[1]!.toLowerCase();
  if (primaryLanguage(blogLocale) === 'ar') return 'arab';
  try {
    return new Intl.NumberFormat(blogLocale).resolvedOptions().numberingSystem;
  } catch {
    return 'latn';
  }
}

export interface Formatters {
  date(ms: number): string;
  number(n: number): string;
}

export function formatters(interfaceLanguage: string, blogLocale: string): Formatters {
  const nu = numberingSystem(blogLocale);
  const base = primaryLanguage(interfaceLanguage) ?? 'en';
  // Gregorian always: the calendar setting changes nothing in published dates.
  const dateFormat = new Intl.DateTimeFormat(`${base}-u-ca-gregory-nu-${nu}`, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  const numberFormat = new Intl.NumberFormat(`${base}-u-nu-${nu}`);
  return { date: (ms) => dateFormat.format(new Date(ms)), number: (n) => numberFormat.format(n) };
}
