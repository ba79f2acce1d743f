// Interface strings in English and Arabic. English is the source of the keys; an
// Arabic string missing here falls back to English. The frame turns RTL under Arabic.
import { isIsolated, isolated, isolatedPath } from './isolate.ts';
import { Store } from './store.ts';
import { ar } from './i18n-ar.ts';
import { enTools } from './i18n-tools.ts';
import { enHealth } from './i18n-health.ts';
import { enWarnings } from './i18n-warnings.ts';
import { enRefusals } from './i18n-refusals.ts';
import { enSync } from './i18n-sync.ts';

export const en = {
  appName: 'Vault admin',
  signInTitle: 'Sign in',
  signInLead: 'Enter the admin password of this server.',
  password: 'Password',
  signIn: 'Sign in',
  signingIn: 'Signing in…',
  wrongPassword: 'That password is not right.',
  tooManyAttempts: 'Too many sign-in attempts. Wait a minute, then try again.',
  signOut: 'Sign out',
  offline: 'The server cannot be reached.',

  files: 'Files',
  newNote: 'New note',
  newFolder: 'New folder',
  noteName: 'Note name',
  folderName: 'Folder name',
  rename: 'Rename…',
  move: 'Move…',
  moveTo: 'Move to folder (empty for the vault root)',
  renameTo: 'New name',
  deleteToTrash: 'Move to trash',
  confirmDelete: 'Move “{name}” to the trash?',
  movedToTrash: '“{name}” moved to the trash.',
  actions: 'Actions for {name}',
  createTopic: 'Create a topic from this folder…',
  publishFolder: 'Publish every note in this folder…',
  collectionsOf: 'Collections…',
  topicName: 'Topic (tag) name',
  topicCreated: 'Topic page {path} written.',
  publishConfirm: { one: 'Publish 1 note in “{folder}”? It gets publish: true.', other: 'Publish {count} notes in “{folder}”? Each note lacking it gets publish: true.' },
  publishNone: 'Every note in “{folder}” is already published.',
  publishDone: { one: '1 note published.', other: '{count} notes published.' },
  publishing: 'Publishing {done} of {total}…',
  collectionsTitle: 'Collections of “{name}”',
  fromFolder: 'from the folder',
  noCollections: 'The vault declares no collections yet. A collection is a tag page note with collection: true.',
  saveMemberships: 'Save memberships',
  membershipsSaved: 'Memberships saved.',
  vaultRoot: 'Vault',
  emptyTree: 'The vault is empty. Create a note to begin.',
  readingVault: 'Reading the vault…',
  treeUnread: 'The vault’s files could not be listed: {error}',
  tryAgain: 'Try again',

  closeTab: 'Close {name}',
  closeUnsaved: '{name} has changes that are not saved. Close it and lose them?',
  closeUnsavedDetail: 'The text typed since the last save is not on disk and not among the versions.',
  keepEditing: 'Keep editing',
  closeWithoutSaving: 'Close without saving',
  saved: 'Saved',
  saving: 'Saving…',
  unsaved: 'Unsaved changes',
  saveFailed: 'Could not save: {error}',
  preview: 'Preview',
  edit: 'Edit',
  conflictTitle: 'This note changed on disk while you were editing. Autosave is paused.',
  conflictDeleted: 'This note was deleted or moved on disk while you were editing, and where it went is not known. Autosave is paused.',
  conflictMoved: 'This note was moved to {path} while you were editing. Autosave is paused.',
  saveWhereMoved: 'Save my text there',
  savedWhereMoved: 'Your text is saved in {path}.',
  keepMineAgain: 'Keep my version: create {path} again',
  keptMineAgain: '{path} is created again with your text.',
  movedOpenUnsaved: '{path} is open in another tab with text that is not saved; save or close it first.',
  restoreNotKept: 'Your unsaved text could not be kept as a version, so nothing was restored: {error}',
  conflictShort: '⚠ Changed on disk',
  keepMine: 'Keep my version',
  useDisk: 'Use the disk version',
  keptMine: 'Your version was written over the newer file, which is kept in History.',
  usedDisk: 'The disk version is loaded. Your text is kept in History, and {key} brings it back.',
  reloaded: '{name} was changed elsewhere and has been reloaded.',

  panel: 'Side panel',
  history: 'History',
  historyLead: 'Commits and local versions of this note.',
  historyNoNote: 'Open a note to see its history.',
  notARepo: 'This vault is not a git repository, so there are no commits to show.',
  turnOnBackup: 'Turn on Backup & sync',
  versionsOff: 'Keeping note versions is turned off, so no local versions are kept.',
  noRevisions: 'No earlier states of this note yet.',
  commit: 'Commit',
  version: 'Version',
  replaced: 'replaced {time}',
  savedAtTime: 'saved {time}',
  restore: 'Restore this revision',
  restoreVersionConfirm: 'Restore the version saved {time}? The current text is kept as a version first.',
  restored: 'Revision restored.',
  undo: 'Undo',
  undone: 'Restore undone.',
  showing: 'Showing {what}',
  closeRevision: 'Close revision',
  truncated: 'Only the newest commits are listed.',
  loading: 'Loading…',
  snapshotLabel: 'Snapshot',
  syncLabel: 'Sync',

  backup: 'Backup & sync',
  backupSwitch: 'Backup',
  backupLead: 'Record a version of the whole vault (commit) and send it to a git remote (push).',
  remoteUrl: 'Remote URL',
  remoteHint: 'HTTPS (https://host/owner/repo.git) or SSH (git@host:owner/repo.git). Never put a token in the URL.',
  interval: 'Automatic sync',
  manual: 'Manual',
  every5: 'Every 5 minutes',
  every15: 'Every 15 minutes',
  every30: 'Every 30 minutes',
  hourly: 'Every hour',
  every6h: 'Every 6 hours',
  daily: 'Once a day',
  advanced: 'Advanced',
  branch: 'Branch',
  pullFirst: 'Pull first (fetch, then fast-forward only, before committing)',
  token: 'Access token',
  tokenHint: 'For HTTPS remotes. Stored only on this server, never in the vault or the URL.',
  username: 'Username',
  tokenSet: 'token set',
  clearToken: 'Clear token',
  tokenCleared: 'Token cleared.',
  sshHelp: 'SSH remotes use this server’s own SSH key or agent (or the SSH command the server’s configuration names); no secret is stored here. Add the server user’s public key to the host as a deploy key with write access.',
  saveSync: 'Save',
  syncSaved: 'Backup settings saved.',
  initRepo: 'Initialize repository',
  initDone: 'The vault is now a git repository.',
  syncNow: 'Sync now',
  snapshotNow: 'Snapshot now',
  snapshotDone: 'Snapshot committed.',
  statusBranch: 'Branch',
  aheadBehind: '{ahead} ahead, {behind} behind',
  nothingReached: 'Nothing has reached the remote yet',
  remoteState: 'Remote',
  uncommitted: 'Uncommitted changes',
  remoteHost: 'Remote host',
  lastResult: 'Last result',
  never: 'never',
  gitError: 'Git said',
  diverged: 'The remote has commits this vault lacks: the histories diverged. Nothing was committed or pushed.',
  busy: 'Another process is syncing this vault; this pass did nothing.',
  needsPassword: 'Backup & sync needs an admin password. Set one with npm run set-password.',
  notRepoYet: 'The vault is not a git repository yet.',
  syncRunning: 'Sync running…',
  syncFailed: 'Last sync failed',
  syncClean: 'Everything committed',
  syncDirty: { one: '1 uncommitted change', other: '{count} uncommitted changes' },
  syncBusy: 'Another process holds the sync lock',
  openBackup: 'Open Backup & sync',
  vaultAsksBackup: 'This vault asks to back up to {host}',
  vaultAsksBackupOn: 'This vault asks to switch backup on',
  vaultAsksBranch: '(branch {branch})',
  vaultRequestLead: 'Its settings name this backup. Nothing is sent anywhere it names until you allow it.',
  allow: 'Allow',
  ignore: 'Ignore',
  vaultRequestAllowed: 'Backup now goes to {host}.',
  vaultRequestIgnored: 'Backup stays as it was.',
  nestedRepository: '{path}/ is its own git repository: its notes are not in this backup',

  settings: 'Settings',
  site: 'Site',
  siteName: 'Site name',
  tagline: 'Tagline',
  logo: 'Logo (https URL or vault attachment)',
  logoName: 'Logo',
  footerName: 'Footer',
  bannerName: 'Dashboard banner',
  language: 'Site language',
  homeNote: 'Home note',
  footer: 'Footer ({year} and {siteName} are replaced)',
  calendar: 'Dates visitors read',
  calendarGregorian: 'Gregorian',
  calendarHijri: 'Hijri (Umm al-Qura)',
  calendarBoth: 'Both',
  calendarHint: 'Month names follow the site language, digits the server’s configured locale; the feed and sitemap stay Gregorian.',
  fromEnvHint: 'From the server’s configuration; saving it here makes it travel with the vault.',
  fromSettings: 'Saved in settings',
  fromDefaultValue: 'Default: {value}, from the server’s configuration',
  fromDefaultNone: 'Not set; the server’s configuration sets none',
  unsavedField: 'unsaved',
  changedElsewhere: 'Changed on the server to “{value}” since you began this edit; Save keeps yours.',
  changedElsewhereBare: 'Changed on the server since you began this edit; Save keeps yours.',
  takeServerValue: 'Use the server’s value',
  unsavedCount: { one: '1 unsaved change', other: '{count} unsaved changes' },
  allSaved: 'Everything is saved.',
  discard: 'Discard',
  leaveUnsaved: { one: 'Settings has 1 unsaved change.', other: 'Settings has {count} unsaved changes.' },
  saveAndLeave: 'Save',
  discardAndLeave: 'Discard',
  stay: 'Stay',
  homeNoteDefault: 'Home.md or index.md at the vault root',
  languageServerDefault: 'The server’s default',
  publishingGroup: 'Publishing',
  layout: 'Public layout',
  layoutDefault: 'Default (app layout)',
  layoutBlog: 'Blog',
  layoutDesigned: 'Designed',
  shareButtons: 'Share buttons under articles',
  languageFilter: 'Language filter (feed and sitemap ?lang=)',
  feedContent: 'Feed content',
  feedExcerpt: 'The excerpt',
  feedFull: 'The full article',
  propertiesPanel: 'Properties panel on articles',
  propertiesOff: 'Off',
  propertiesShown: 'Shown (the note’s frontmatter values)',
  homeGroup: 'Home page',
  homeMode: 'Home shows',
  homeModeNote: 'The home note, then the posts',
  homeModeDashboard: 'A dashboard',
  banner: 'Dashboard banner (https URL or vault attachment)',
  collections: 'Collections',
  collectionsEnable: 'Turn on collections',
  showOnHome: 'Show on home page',
  showInNav: 'Show in navigation',
  collectionSource: 'Categories come from',
  sourceTags: 'Tags (collections declared by tag pages)',
  sourceFolders: 'Folders',
  declared: 'What the vault declares',
  noneDeclared: 'Nothing declared: add collection: true to a tag page note.',
  hiddenCollection: 'hidden from visitors',
  keepVersions: 'Keep note versions',
  keepVersionsHint: 'Before every save, keep the text it replaces (local to this server).',
  travel: 'Settings travel with the vault',
  travelHint: 'On this device: mirror the device preferences into the vault’s .service/ folder.',
  whatTravels: 'What travels',
  lastPass: 'Last pass',
  reconciled: 'Files reconciled',
  resyncNow: 'Re-sync now',
  leftBehind: '{file} was left behind: {reason}',
  travelSite: 'Site settings',
  travelDesigns: 'Designs',
  travelCss: 'Custom CSS',
  travelFonts: 'Fonts',
  travelLayouts: 'Layouts',
  travelBooks: 'Books',
  travelAnnotations: 'Notes on words',
  travelPrefs: 'Preferences',
  glyphHeld: 'the vault holds it',
  glyphPending: 'this machine holds something the vault does not yet',
  glyphNothing: 'nothing to carry',
  save: 'Save',
  settingsSaved: 'Settings saved.',
  addImage: 'Image',
  addImageTitle: 'Add an image from this device',
  appearance: 'Your preferences (they travel with the vault when settings do)',
  theme: 'Theme',
  themeAuto: 'Follow the system',
  themeLight: 'Light',
  themeDark: 'Dark',
  interfaceLanguage: 'Interface language',
  unavailable: 'Not available on this server yet ({error}).',

  trash: 'Trash',
  trashEmpty: 'The trash is empty.',
  cameFrom: 'from {path}',
  deletedAt: 'deleted {time}',
  restoreEntry: 'Restore',
  erase: 'Erase',
  eraseConfirm: 'Erase “{name}” for good? Its versions are erased too.',
  emptyTrash: 'Empty trash',
  emptyConfirm: 'Erase everything in the trash for good?',
  restoredTo: 'Restored to {path}.',

  previewSite: 'Preview as visitor',
  changeBanner: 'Change banner',
  bannerTitle: 'Dashboard banner',
  pasteUrl: 'Paste an https URL',
  pickAttachment: 'Pick a vault attachment',
  upload: 'Upload an image',
  useThis: 'Use this banner',
  removeBanner: 'Use the generated gradient',
  bannerSaved: 'Banner changed.',
  noAttachments: 'No image attachments in the vault.',
  notDashboard: 'The home page is not in dashboard mode; turn it on under Settings → Home page.',

  palette: 'Command palette',
  paletteHint: 'Type a command or a note name',
  cmdNewNote: 'New note',
  cmdSnapshot: 'Snapshot now',
  cmdSync: 'Sync now',
  cmdSettings: 'Open settings',
  cmdTrash: 'Show trash',
  cmdHistory: 'Show history',
  cmdBackup: 'Open Backup & sync',
  cmdPreview: 'Preview the public site',
  cmdTheme: 'Switch theme',
  cmdLanguage: 'Switch interface language (العربية)',
  cmdSignOut: 'Sign out',
  cmdOpen: 'Open {name}',
  noMatches: 'No matching command.',

  skipToMain: 'Skip to the main area',
  linkCreated: '{path} did not exist: it was created.',
  imageRefused: 'The image was not added: {reason}',
  ok: 'OK',
  cancel: 'Cancel',
  close: 'Close',
  menu: 'Menu',
  toggleTree: 'Show or hide the file tree',
  togglePanel: 'Show or hide the side panel',
  error: 'Error',

  comments: 'Comments',
  commentsQueue: 'Waiting for moderation',
  queueShown: 'Showing {shown} of {total}',
  queueMore: { one: 'Show 1 more', other: 'Show {count} more' },
  commentsNone: 'Nothing waits for moderation.',
  commentsApproved: 'Approved: what readers see',
  commentsNoneApproved: 'No approved comments or mentions yet.',
  commentsOff: 'Comments are off: visitors see no form. Turn them on under Settings → Comments.',
  filterByNote: 'Note',
  allNotes: 'All notes',
  approve: 'Approve',
  reject: 'Reject',
  spam: 'Spam',
  deleteComment: 'Delete',
  replyAction: 'Reply',
  replyPlaceholder: 'Your reply, shown as the site’s author and published at once',
  sendReply: 'Publish reply',
  replySent: 'Reply published.',
  deleteCommentConfirm: 'Delete this from “{name}” for good? Replies under it go too.',
  statusPending: 'waiting',
  statusApproved: 'approved',
  statusRejected: 'rejected',
  statusSpam: 'spam',
  kindReply: 'reply from another site',
  kindLike: 'like',
  kindRepost: 'repost',
  kindMention: 'mention',
  byAuthor: 'You (the author)',
  onNote: 'on “{title}”',
  pendingBadge: { one: '1 comment or mention waiting', other: '{count} comments or mentions waiting' },
  noNoteComments: 'No comments or mentions on this note.',
  commentsEnable: 'Comments and mentions under articles',
  moderation: 'Moderation',
  moderationAll: 'Every comment waits for approval',
  moderationKnown: 'Known commenters skip the queue (the same name and email as an approved comment)',
  moderationNone: 'None: comments appear at once',
  commentsHint: 'Comments stay on this server, in its data folder, and never travel with the vault.',
  cmdComments: 'Show comments',
  ...enTools,
  ...enHealth,
  ...enWarnings,
  ...enRefusals,
  ...enSync,
};

export type StringKey = keyof typeof en;
export type Lang = 'en' | 'ar';

export const lang = new Store<Lang>('en');

/** A count's sentence in each of the language's plural forms (Intl.PluralRules' categories); `other` is required. */
export type PluralForms = { other: string } & Partial<Record<Exclude<Intl.LDMLPluralRule, 'other'>, string>>;
/** A table's entry: one sentence, or one per plural form of its `{count}`. */
export type Text = string | PluralForms;

const pluralRules = new Map<Lang, Intl.PluralRules>();

/** The plural form `count` takes in `language` (Arabic: zero, one, two, few, many, other). */
export function pluralForm(count: number, language: Lang = lang.get()): Intl.LDMLPluralRule {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(count);
}

function sentence(text: Text, vars: Record<string, string | number>): string {
  if (typeof text === 'string') return text;
  const count = Number(vars.count);
  return Number.isFinite(count) ? (text[pluralForm(count)] ?? text.other) : text.other;
}

/** Placeholders that hold a vault's name, or a path (left to right whatever its letters): isolated in the sentence (isolate.ts). */
const NAMES = new Set(['name', 'title']);
const PATHS = new Set(['path', 'folder']);

/** The interface's sentence for `key`; an entry with plural forms takes the form of `vars.count`. */
export function t(key: StringKey, vars: Record<string, string | number> = {}): string {
  const table = lang.get() === 'ar' ? (ar as Partial<Record<StringKey, Text>>) : (en as Record<StringKey, Text>);
  const template = sentence(table[key] ?? en[key], vars);
  const fill = (name: string, value: string | number) => {
    if (typeof value !== 'string' || isIsolated(value)) return String(value);
    return PATHS.has(name) ? isolatedPath(value) : NAMES.has(name) ? isolated(value) : value;
  };
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? fill(name, vars[name]!) : whole));
}

/** Applies the interface language to the frame: `lang` and `dir` on <html>. */
export function applyLang(next: Lang): void {
  lang.set(next);
  document.documentElement.lang = next;
  document.documentElement.dir = next === 'ar' ? 'rtl' : 'ltr';
}

/** CodeMirror's own words (the find panel, suggestions) in Arabic; English needs none. */
export function editorPhrases(): Record<string, string> {
  if (lang.get() !== 'ar') return {};
  return {
    Find: 'ابحث',
    Replace: 'استبدل',
    next: 'التالي',
    previous: 'السابق',
    all: 'الكل',
    'match case': 'طابق حالة الأحرف',
    regexp: 'تعبير نمطي',
    'by word': 'كلمة كاملة',
    replace: 'استبدل',
    'replace all': 'استبدل الكل',
    close: 'أغلق',
    'current match': 'المطابقة الحالية',
    'on line': 'في السطر',
    'Go to line': 'انتقل إلى السطر',
    go: 'انتقل',
    Completions: 'اقتراحات',
    'not published': 'غير منشورة',
  };
}

/** Apple keyboards say ⌘; every other one says Ctrl (the palette showed ⌘K on Linux). */
export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent);

/** A shortcut as this keyboard writes it: `shortcut('K')` is `⌘K` on a Mac, `Ctrl+K` elsewhere. */
export function shortcut(key: string, shift = false): string {
  return IS_MAC ? `${shift ? '⇧' : ''}⌘${key}` : `Ctrl+${shift ? 'Shift+' : ''}${key}`;
}

/** The mark of a closed fold: it points along the reading direction (◂ in Arabic). */
export function closedMark(): string {
  return lang.get() === 'ar' ? '◂' : '▸';
}

export function formatTime(value: string | number | Date): string {
  const d = new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value);
  if (Number.isNaN(d.getTime())) return String(value);
  return new Intl.DateTimeFormat(lang.get() === 'ar' ? 'ar' : 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
