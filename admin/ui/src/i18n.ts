// Interface strings in English and Arabic. English is the source of the keys; an
// Arabic string missing here falls back to English. The frame turns RTL under Arabic.
import { Store } from './store.ts';
import { ar } from './i18n-ar.ts';
import { enTools } from './i18n-tools.ts';

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
  publishConfirm: 'Publish {count} notes in “{folder}”? Each note lacking it gets publish: true.',
  publishNone: 'Every note in “{folder}” is already published.',
  publishDone: '{count} notes published.',
  publishing: 'Publishing {done} of {count}…',
  collectionsTitle: 'Collections of “{name}”',
  fromFolder: 'from the folder',
  noCollections: 'The vault declares no collections yet. A collection is a tag page note with collection: true.',
  saveMemberships: 'Save memberships',
  membershipsSaved: 'Memberships saved.',
  vaultRoot: 'Vault',
  emptyTree: 'The vault is empty. Create a note to begin.',

  noNoteOpen: 'Open a note from the file tree, or create one ({key}).',
  closeTab: 'Close {name}',
  saved: 'Saved',
  saving: 'Saving…',
  unsaved: 'Unsaved changes',
  saveFailed: 'Could not save: {error}',
  preview: 'Preview',
  edit: 'Edit',
  conflictTitle: 'This note changed on disk while you were editing. Autosave is paused.',
  conflictDeleted: 'This note was deleted or moved on disk while you were editing. Autosave is paused.',
  conflictShort: '⚠ Changed on disk',
  keepMine: 'Keep my version',
  useDisk: 'Use the disk version',
  keptMine: 'Your version was written over the newer file.',
  usedDisk: 'The disk version is loaded. {key} brings your text back.',
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
  sshHelp: 'SSH remotes use this server’s own SSH key or agent (or SERVICE_GIT_SSH_COMMAND); no secret is stored here. Add the server user’s public key to the host as a deploy key with write access.',
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
  syncDirty: '{count} uncommitted changes',
  syncBusy: 'Another process holds the sync lock',
  openBackup: 'Open Backup & sync',

  settings: 'Settings',
  site: 'Site',
  siteName: 'Site name',
  tagline: 'Tagline',
  logo: 'Logo (https URL or vault attachment)',
  language: 'Site language',
  homeNote: 'Home note',
  footer: 'Footer ({year} and {siteName} are replaced)',
  calendar: 'Dates visitors read',
  calendarGregorian: 'Gregorian',
  calendarHijri: 'Hijri (Umm al-Qura)',
  calendarBoth: 'Both',
  calendarHint: 'Month names follow the site language, digits BLOG_LOCALE; the feed and sitemap stay Gregorian.',
  fromEnvHint: 'From this server’s environment; saving it here makes it travel with the vault.',
  fromSettings: 'Saved in settings',
  fromDefaultEnv: 'Default ({env} is not set)',
  unsavedField: 'unsaved',
  unsavedCount: '{count} unsaved changes',
  allSaved: 'Everything is saved.',
  discard: 'Discard',
  leaveUnsaved: 'Settings has {count} unsaved changes.',
  saveAndLeave: 'Save',
  discardAndLeave: 'Discard',
  stay: 'Stay',
  homeNoteDefault: 'Home.md or index.md at the vault root',
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
  appearance: 'This device',
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
  ...enTools,
};

export type StringKey = keyof typeof en;
export type Lang = 'en' | 'ar';

export const lang = new Store<Lang>('en');

export function t(key: StringKey, vars: Record<string, string | number> = {}): string {
  const table = lang.get() === 'ar' ? (ar as Partial<Record<StringKey, string>>) : en;
  const template = table[key] ?? en[key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
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
  };
}

/** Apple keyboards say ⌘; every other one says Ctrl (issue 16: the palette showed ⌘K on Linux). */
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
