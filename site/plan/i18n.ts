// The blog frame's words in the interface language, and dates as spec D.1 wants
// them: month names from the interface language, digits from BLOG_LOCALE.
import { dateFormatter } from '../../shared/visitor-dates.ts';
import { primaryLanguage } from '../../shared/note/language.ts';
import type { CalendarDisplay } from '../../shared/settings.ts';

const EN = {
  home: 'Home',
  skipToContent: 'Skip to content',
  more: 'More',
  topics: 'Topics',
  allTopics: 'All topics',
  related: 'Related',
  previous: 'Previous',
  next: 'Next',
  olderPosts: 'Older posts',
  newerPosts: 'Newer posts',
  share: 'Share',
  copyLink: 'Copy link',
  email: 'Email',
  /** A note's word count, its number `n` in BLOG_LOCALE's digits. */
  words: (n: string, count: number) => (count === 1 ? `${n} word` : `${n} words`),
  minRead: 'min read',
  /** The reading time's count, before minRead: its words follow the number in some languages. */
  minutes: (n: string, _count: number) => n,
  updated: 'Updated',
  signIn: 'Sign in',
  edit: 'Edit',
  rss: 'RSS',
  poweredBy: 'Published with vault-service',
  notFoundTitle: 'Not found',
  notFoundText: 'There is nothing at this address.',
  backHome: 'Back to the home page',
  publishedNotes: (n: string, count: number) => (count === 1 ? `${n} published note` : `${n} published notes`),
  backToTop: 'Back to top',
  /** The masthead's light/dark button: pressed while the page is dark. */
  darkTheme: 'Dark theme',
  copyCode: 'Copy',
  codeCopied: 'Copied',
  // The reader's tools (CONTRACT §12).
  explorer: 'Notes',
  /** The full explorer page's title, and the link to what a page's explorer leaves out ({n}: how many). */
  explorerAll: 'All notes',
  explorerMore: '{n} more',
  breadcrumbs: 'Breadcrumbs',
  contents: 'On this page',
  sectionLink: 'Link to this section',
  linkedFrom: 'Linked from',
  /** The notes linking here past those shown with their sentence. */
  linkedFromMore: (n: string, count: number) => (count === 1 ? `${n} more note` : `${n} more notes`),
  graph: 'Linked notes',
  topic: 'Topic',
  /** A nested tag's topic page: the topics it nests in (a breadcrumb's name) and those nested in it. */
  parentTopics: 'Parent topics',
  subtopics: 'Nested topics',
  collection: 'Collection',
  category: 'Category',
  /** A folder's page (the garden): its label, and the heading of the folders in it. */
  folder: 'Folder',
  subfolders: 'Folders',
  alsoIn: 'Also in',
  counterpart: 'See also',
  noPosts: 'Nothing published here yet.',
  page: 'Page',
  comments: 'Comments',
  mentions: 'Mentions',
  latest: 'Latest',
  search: 'Search',
  searchPlaceholder: 'Search…',
  searchNeedsScripts: 'Search runs in your browser and needs JavaScript, which is off. The topics below lead to every post.',
  searching: 'Searching…',
  // Filled in by the browser: {n} the count (BLOG_LOCALE's digits), {q} the query.
  searchResult: '{n} result for “{q}”',
  searchResults: '{n} results for “{q}”',
  noResults: 'Nothing matches “{q}”.',
  searchFailed: 'Search is unavailable right now. Try again in a moment.',
  closeSearch: 'Close search',
  showMore: 'Show more results',
  browseTopics: 'Browse by topic',
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
  backToArticle: 'Back to the article',
  reply: 'Reply',
  cancelReply: 'Cancel reply',
  replyingTo: 'Replying to',
  siteAuthor: 'Author',
  likes: (n: string, count: number) => (count === 1 ? `${n} like` : `${n} likes`),
  reposts: (n: string, count: number) => (count === 1 ? `${n} repost` : `${n} reposts`),
  mentionReplies: 'Replies from other sites',
  mentionedIn: 'Mentioned in',
  // Bases and canvases (CONTRACT §12).
  baseResults: (n: string, count: number) => (count === 1 ? `${n} result` : `${n} results`),
  baseUnsupported: (what: string) => `This base uses ${what}, which the site cannot show.`,
  baseUnreadable: (why: string) => `This base cannot be shown: ${why}.`,
  baseNoValue: 'No value',
  baseSummaries: 'Summaries',
  baseSummaryNames: { Average: 'Average', Min: 'Min', Max: 'Max', Sum: 'Sum', Range: 'Range', Median: 'Median', Stddev: 'Std. dev.', Earliest: 'Earliest', Latest: 'Latest', Checked: 'Checked', Unchecked: 'Unchecked', Empty: 'Empty', Filled: 'Filled', Unique: 'Unique' } as Record<string, string>,
  baseSummaryUnsupported: (name: string) => `The summary “${name}” is not supported`,
  baseDays: (n: string, count: number) => (count === 1 ? `${n} day` : `${n} days`),
  canvas: 'Canvas',
  canvasUnreadable: (why: string) => `This canvas cannot be shown: ${why}.`,
  canvasHidden: 'A note that is not published',
  canvasZoomIn: 'Zoom in',
  canvasZoomOut: 'Zoom out',
  canvasFit: 'Fit to view',
};

type Strings = typeof EN;

const AR_PLURAL = new Intl.PluralRules('ar');

/**
 * An Arabic counted noun in the form its count takes (CLDR's categories, Intl.PluralRules):
 * 1 and 2 are words of their own, 3–10 (and 103–110…) take the plural, 11–99 the singular
 * accusative, 100 and 0 the singular. `n` is the count in BLOG_LOCALE's digits.
 */
function arabicCount(forms: { one: string; two: string; few: string; many: string; other: string }) {
  return (n: string, count: number): string => {
    const form = AR_PLURAL.select(count);
    if (form === 'one' || form === 'two') return forms[form];
    return `${n} ${form === 'few' || form === 'many' ? forms[form] : forms.other}`;
  };
}

const AR: Strings = {
  home: 'الرئيسية',
  skipToContent: 'انتقل إلى المحتوى',
  more: 'المزيد',
  topics: 'المواضيع',
  allTopics: 'كل المواضيع',
  related: 'ذو صلة',
  previous: 'السابق',
  next: 'التالي',
  olderPosts: 'تدوينات أقدم',
  newerPosts: 'تدوينات أحدث',
  share: 'شارك',
  copyLink: 'انسخ الرابط',
  email: 'بريد',
  words: arabicCount({ one: 'كلمة واحدة', two: 'كلمتان', few: 'كلمات', many: 'كلمة', other: 'كلمة' }),
  minRead: 'قراءة',
  minutes: arabicCount({ one: 'دقيقة واحدة', two: 'دقيقتان', few: 'دقائق', many: 'دقيقة', other: 'دقيقة' }),
  updated: 'حُدّثت في',
  signIn: 'تسجيل الدخول',
  edit: 'تحرير',
  rss: 'RSS',
  poweredBy: 'نُشر باستخدام vault-service',
  notFoundTitle: 'غير موجود',
  notFoundText: 'لا شيء في هذا العنوان.',
  backHome: 'العودة إلى الصفحة الرئيسية',
  publishedNotes: arabicCount({ one: 'ملاحظة منشورة واحدة', two: 'ملاحظتان منشورتان', few: 'ملاحظات منشورة', many: 'ملاحظة منشورة', other: 'ملاحظة منشورة' }),
  backToTop: 'العودة إلى الأعلى',
  darkTheme: 'المظهر الداكن',
  copyCode: 'نسخ',
  codeCopied: 'تم النسخ',
  explorer: 'الملاحظات',
  explorerAll: 'كل الملاحظات',
  explorerMore: 'المزيد ({n})',
  folder: 'مجلد',
  subfolders: 'المجلدات',
  breadcrumbs: 'مسار التنقل',
  contents: 'في هذه الصفحة',
  sectionLink: 'رابط إلى هذا القسم',
  linkedFrom: 'روابط إلى هذه الملاحظة',
  linkedFromMore: arabicCount({ one: 'ملاحظة أخرى', two: 'ملاحظتان أخريان', few: 'ملاحظات أخرى', many: 'ملاحظة أخرى', other: 'ملاحظة أخرى' }),
  graph: 'الملاحظات المرتبطة',
  topic: 'موضوع',
  parentTopics: 'المواضيع الأعلى',
  subtopics: 'مواضيع متفرعة',
  collection: 'مجموعة',
  category: 'تصنيف',
  alsoIn: 'متوفر أيضاً في',
  counterpart: 'انظر أيضاً',
  noPosts: 'لم يُنشر شيء هنا بعد.',
  page: 'صفحة',
  comments: 'التعليقات',
  mentions: 'الإشارات',
  latest: 'الأحدث',
  search: 'بحث',
  searchPlaceholder: 'ابحث…',
  searchNeedsScripts: 'يجري البحث في متصفحك ويحتاج إلى JavaScript، وهي معطّلة. المواضيع أدناه تقود إلى كل التدوينات.',
  searching: 'جارٍ البحث…',
  searchResult: 'نتيجة واحدة لـ«{q}»',
  searchResults: 'النتائج لـ«{q}»: {n}',
  noResults: 'لا شيء يطابق «{q}».',
  searchFailed: 'البحث غير متاح الآن. أعد المحاولة بعد قليل.',
  closeSearch: 'أغلق البحث',
  showMore: 'اعرض نتائج أكثر',
  browseTopics: 'تصفّح حسب الموضوع',
  commentCount: arabicCount({ one: 'تعليق واحد', two: 'تعليقان', few: 'تعليقات', many: 'تعليقًا', other: 'تعليق' }),
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
  backToArticle: 'العودة إلى المقال',
  reply: 'رُدّ',
  cancelReply: 'إلغاء الرد',
  replyingTo: 'ردًا على',
  siteAuthor: 'الكاتب',
  likes: arabicCount({ one: 'إعجاب واحد', two: 'إعجابان', few: 'إعجابات', many: 'إعجابًا', other: 'إعجاب' }),
  reposts: arabicCount({ one: 'إعادة نشر واحدة', two: 'إعادتا نشر', few: 'إعادات نشر', many: 'إعادة نشر', other: 'إعادة نشر' }),
  mentionReplies: 'ردود من مواقع أخرى',
  mentionedIn: 'أُشير إليها في',
  baseResults: (n: string) => `النتائج: ${n}`,
  baseUnsupported: (what: string) => `تستخدم هذه القاعدة ${what}، وهو ما لا يستطيع الموقع عرضه.`,
  baseUnreadable: (why: string) => `لا يمكن عرض هذه القاعدة: ${why}.`,
  baseNoValue: 'بلا قيمة',
  baseSummaries: 'الملخصات',
  baseSummaryNames: { Average: 'المتوسط', Min: 'الأدنى', Max: 'الأعلى', Sum: 'المجموع', Range: 'المدى', Median: 'الوسيط', Stddev: 'الانحراف المعياري', Earliest: 'الأقدم', Latest: 'الأحدث', Checked: 'المحدَّد', Unchecked: 'غير المحدَّد', Empty: 'الفارغ', Filled: 'المملوء', Unique: 'الفريد' },
  baseSummaryUnsupported: (name: string) => `الملخص «\u2068${name}\u2069» غير مدعوم`,
  baseDays: arabicCount({ one: 'يوم واحد', two: 'يومان', few: 'أيام', many: 'يومًا', other: 'يوم' }),
  canvas: 'لوحة',
  canvasUnreadable: (why: string) => `لا يمكن عرض هذه اللوحة: ${why}.`,
  canvasHidden: 'ملاحظة غير منشورة',
  canvasZoomIn: 'تكبير',
  canvasZoomOut: 'تصغير',
  canvasFit: 'ملاءمة العرض',
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

/** The locale the browser formats counts in as the site does: interface language, BLOG_LOCALE's digits. */
export function numberLocale(interfaceLanguage: string, blogLocale: string): string {
  return `${primaryLanguage(interfaceLanguage) ?? 'en'}-u-nu-${numberingSystem(blogLocale)}`;
}

export interface Formatters {
  /** A date as visitors read it: the calendar setting's calendar (or both), month names and digits as above. */
  date(ms: number): string;
  /** A count (words, minutes, notes, page numbers) in BLOG_LOCALE's digits. */
  number(n: number): string;
  /** A year as written in a footer: BLOG_LOCALE's digits, no grouping. */
  year(n: number): string;
}

/**
 * spec D.1, CONTRACT §10: the one formatter of every date and count a visitor reads (articles,
 * lists, cards, comments). Month names from the interface language, digits from BLOG_LOCALE, the
 * calendar from the setting: Gregorian, Hijri (Umm al-Qura) or both. Feeds and sitemaps never
 * come here: their dates stay Gregorian (filters.ts).
 */
export function formatters(interfaceLanguage: string, blogLocale: string, calendar: CalendarDisplay = 'gregorian'): Formatters {
  // Every plan asks again; Intl's formatters are slow to make: one per settings.
  const key = `${interfaceLanguage}\u0000${blogLocale}\u0000${calendar}`;
  let made = madeFormatters.get(key);
  if (!made) {
    if (madeFormatters.size > 32) madeFormatters.clear();
    made = makeFormatters(interfaceLanguage, blogLocale, calendar);
    madeFormatters.set(key, made);
  }
  return made;
}

const madeFormatters = new Map<string, Formatters>();

/**
 * The locales a date is written in, one per calendar shown (joined by ` / `): what the
 * formatters below use, and what a page's script formats a just-posted comment's date with.
 */
export function dateLocales(interfaceLanguage: string, blogLocale: string, calendar: CalendarDisplay): string[] {
  const nu = numberingSystem(blogLocale);
  const base = dateLanguage(interfaceLanguage);
  const inCalendar = (ca: string) => `${base}-u-ca-${ca}-nu-${nu}`;
  if (calendar === 'hijri') return [inCalendar('islamic-umalqura')];
  return calendar === 'both' ? [inCalendar('gregory'), inCalendar('islamic-umalqura')] : [inCalendar('gregory')];
}

/**
 * The language dates are written in: the site's, when this Node's ICU has its data, else
 * English. Asked for a language it lacks (`dv`), Intl falls back to its default locale and
 * drops the calendar with it: Hijri dates came out Gregorian, in Latin digits, unnoticed.
 */
function dateLanguage(interfaceLanguage: string): string {
  const base = primaryLanguage(interfaceLanguage) ?? 'en';
  let known = knownDateLanguages.get(base);
  if (known === undefined) {
    known = Intl.DateTimeFormat.supportedLocalesOf([base]).length > 0;
    knownDateLanguages.set(base, known);
  }
  return known ? base : 'en';
}

const knownDateLanguages = new Map<string, boolean>();

function makeFormatters(interfaceLanguage: string, blogLocale: string, calendar: CalendarDisplay): Formatters {
  const nu = numberingSystem(blogLocale);
  const base = dateLanguage(interfaceLanguage);
  // Each made at its first use: a server's start asks only for the footer's year, and each Intl
  // formatter costs milliseconds to make.
  let format: ((ms: number) => string) | undefined;
  let numberFormat: Intl.NumberFormat | undefined;
  let yearFormat: Intl.NumberFormat | undefined;
  // A note's date is written on its page, its cards, its search row: formatted once per day shown
  // (Intl's format was a tenth of a full build's page views). Only the UTC day is shown, so it is the key.
  const days = new Map<number, string>();
  const date = (ms: number) => {
    const day = Math.floor(ms / DAY_MS);
    let text = days.get(day);
    if (text === undefined) {
      if (days.size >= 100_000) days.clear();
      format ??= dateFormatter(dateLocales(interfaceLanguage, blogLocale, calendar));
      days.set(day, (text = format(ms)));
    }
    return text;
  };
  return {
    date,
    number: (n) => (numberFormat ??= new Intl.NumberFormat(`${base}-u-nu-${nu}`)).format(n),
    year: (n) => (yearFormat ??= new Intl.NumberFormat(`${base}-u-nu-${nu}`, { useGrouping: false })).format(n),
  };
}

const DAY_MS = 86_400_000;
