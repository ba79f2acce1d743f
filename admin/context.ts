// Builds the admin's domain objects and services once at start, with their start
// and close; routes receive this context and only parse, call and map (STYLE.md, "Routes").
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Config } from '../shared/config.ts';
import { CreatedStore } from '../shared/created-store.ts';
import { configureGitRunner } from '../shared/git-safety.ts';
import { refuse } from '../shared/errors.ts';
import { log } from '../shared/log.ts';
import type { PostItem } from '../shared/model/posts.ts';
import type { BuildWarning } from '../shared/model/build-warnings.ts';
import { SiteHealth } from './site-health.ts';
import { CommentsService, type SiteLink } from './comments/service.ts';
import { Webmentions } from './comments/webmention.ts';
import { modelSettings } from '../shared/model/model-settings.ts';
import { createSettingsReader, siteSettingsOf, type Settings } from '../shared/settings.ts';
import { VaultEvents } from '../shared/vault-events.ts';
import { SettingsEvents } from './events/settings-events.ts';
import { DATA_DIR_MARKER, VaultRoot, type VaultPath } from '../shared/vault-path.ts';
import { writeFileAtomic } from '../shared/atomic-write.ts';
import { loadAdminPassword, type AdminPassword } from './auth/admin-password.ts';
import { LoginGuard } from './auth/login-guard.ts';
import { createSessionStore, type SessionStore } from './auth/sessions.ts';
import { createSettingsService, GIT_SETTINGS_CHECKS, type SettingsService } from './settings.ts';
import { SyncScheduler } from './sync/scheduler.ts';
import { createSettingsInEffectReader } from './sync/vault-request.ts';
import { relativeInVault, SyncService } from './sync/service.ts';
import { TravelService } from './travel/service.ts';
import { createDeclaredCollections, type DeclaredCollection } from './ui/server/collections.ts';
import { NoteIndex } from './search/note-index.ts';
import { createNoteWriter, type NoteWriter } from './vault/note-writer.ts';
import { VaultLock } from './vault/vault-lock.ts';
import { PathLocks } from './vault/path-locks.ts';
import { RenameJournal } from './vault/rename-journal.ts';
import { MovedNotes } from './vault/moved-notes.ts';
import { createRenamer } from './vault/rename.ts';
import { createTrash } from './vault/trash.ts';
import { VersionStore, type VersionLimits } from './versions/version-store.ts';
import { OutsideMoves } from './versions/outside-moves.ts';

export interface AdminContext {
  config: Config;
  root: VaultRoot;
  /** Absolute folders the vault walk leaves out (the data directory when inside the vault). */
  skipDirs: string[];
  events: VaultEvents;
  /** The settings in effect changed (a save, or another server's change the mirror took in). */
  settingsEvents: SettingsEvents;
  created: CreatedStore;
  versions: VersionStore;
  writer: NoteWriter;
  trash: ReturnType<typeof createTrash>;
  renamer: ReturnType<typeof createRenamer>;
  /** Where a vanished note went (the strip offers to carry unsaved text there). */
  movedNotes: MovedNotes;
  sessions: SessionStore;
  loginGuard: LoginGuard;
  password: AdminPassword;
  readSettings: () => Promise<Settings>;
  versionsEnabled: () => Promise<boolean>;
  /** GET /api/posts: the published posts from the one vault model (the public site's builder). */
  posts: () => Promise<PostItem[]>;
  settings: SettingsService;
  sync: SyncService;
  scheduler: SyncScheduler;
  /** The settings mirror and device preferences (spec 8). */
  travel: TravelService;
  /** The collections the vault declares (spec D.5). */
  collections: () => Promise<DeclaredCollection[]>;
  /** The notes' titles, tags, links and folded text, kept current from vault events. */
  notes: NoteIndex;
  /** Versions follow notes moved outside the app, and (given the first scan's new notes) moved while the server was down. */
  outsideMoves: OutsideMoves;
  /** Comments and their moderation (CONTRACT §8). */
  comments: CommentsService;
  /** Received webmentions, checked after the answer (CONTRACT §8). */
  webmentions: Webmentions;
  /** The public site's stylesheets, which the note preview links; null without a site. */
  siteStylesheets: () => Promise<SiteStylesheets | null>;
  /** What the newest build found wrong in the vault (CONTRACT §13). */
  siteHealth: SiteHealth;
  /** spec 5.1: backup & sync (and what travels) is unusable until an admin password exists. */
  requireSyncAllowed(): void;
  /** Starts the services once, before the server listens; never blocks on the network. */
  start(): Promise<void>;
  /** Stops them when the server stops. */
  close(): Promise<void>;
}

/** The stylesheets the site's pages link, in order, and KaTeX's (for math), by their addresses. */
export interface SiteStylesheets {
  page: string[];
  katex: string;
}

export interface AdminContextOptions {
  events?: VaultEvents;
  /** Handed in by the composer: the public site owns the vault model. */
  posts?: () => Promise<PostItem[]>;
  /** The public site as comments need it (its posts, and a discussion changed). */
  site?: SiteLink;
  versionLimits?: Partial<VersionLimits>;
  /** The public site's newest build warnings (the site owns the build). */
  buildWarnings?: (waitMs: number) => Promise<readonly BuildWarning[]>;
  /** Told after the admin moved a note or folder: the public site keeps the old addresses alive (CONTRACT §7). */
  moved?: (from: VaultPath, to: VaultPath) => void;
  /** The public site's stylesheets (hashed addresses), for the note preview; none without a site. */
  siteStylesheets?: () => Promise<SiteStylesheets | null>;
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The data directory, when it lies inside the vault (spec 2.3, Appendix A). */
export async function dataDirInVault(config: Config): Promise<string | null> {
  const vault = await fs.realpath(config.vaultDir);
  const data = await fs.realpath(config.dataDir);
  // It could not be ignored without ignoring every note: a sync would commit the token.
  if (vault === data) {
    throw new Error(`SERVICE_DATA is the vault itself (${config.vaultDir}); give the server a data directory of its own (a folder inside the vault, ignored by git, will do).`);
  }
  return isInside(vault, data) ? path.join(config.vaultDir, path.relative(vault, data)) : null;
}

export async function createAdminContext(config: Config, options: AdminContextOptions = {}): Promise<AdminContext> {
  configureGitRunner({ repoPrograms: config.gitHooks, networkTimeoutMs: config.gitNetworkTimeoutMs });
  const inVault = await dataDirInVault(config);
  const skipDirs = inVault ? [inVault] : [];
  // Another server on the vault knows this folder for a data directory by it (vault-path.ts).
  if (inVault) await writeFileAtomic(path.join(config.dataDir, DATA_DIR_MARKER), "vault-service data directory: this server's own; never published, listed or synced\n", { mode: 0o600 });
  const root = new VaultRoot(config.vaultDir, [await fs.realpath(config.dataDir)]);
  const events = options.events ?? new VaultEvents();
  const created = new CreatedStore(config.dataDir);
  await created.load();
  const versions = new VersionStore(config.dataDir, options.versionLimits);
  void versions.load();
  // Backup acts only on the target this device's admin chose or allowed (CONTRACT §14).
  const readSettings = createSettingsInEffectReader(config.dataDir, createSettingsReader(config.dataDir));
  // spec 9: the Keep note versions setting wins; NOTE_VERSIONS is the instance default.
  const versionsEnabled = async () => (await readSettings()).versions.keep ?? config.noteVersions;
  // One lock per vault path for every mutation: the writer, rename (through the writer) and the trash.
  const vaultLock = new VaultLock(config.vaultDir);
  const locks = new PathLocks(vaultLock);
  const writer = createNoteWriter({ root, versions, events, versionsEnabled, locks });
  const password = await loadAdminPassword(config);
  const settingsEvents = new SettingsEvents();
  const travel = new TravelService({ config, checks: GIT_SETTINGS_CHECKS, vaultLock, pulled: (rel) => rel === 'settings.json' && settingsEvents.changed() });
  const dataDirRel = relativeInVault(config.vaultDir, inVault);
  // A pull's fast-forward holds the whole vault ('') against every server's saves (admin/sync/pass.ts).
  const sync = new SyncService({ config, readSettings, dataDirRel: async () => dataDirRel, holdingVault: (step) => locks.run([''], step) });
  const scheduler = new SyncScheduler({ service: sync, readSettings, vaultDir: config.vaultDir, dataDir: config.dataDir });
  const notes = new NoteIndex({ root, events, skipDirs });
  const movedNotes = new MovedNotes(root, events);
  const outsideMoves = new OutsideMoves({ root, versions, events });
  const noSite: SiteLink = { post: async () => null, discussionChanged: async () => undefined, commentFailurePage: async () => null };
  const comments = new CommentsService({ config, readSettings, site: () => options.site ?? noSite });
  const webmentions = new Webmentions(config, comments);
  return {
    config,
    root,
    skipDirs,
    events,
    settingsEvents,
    created,
    versions,
    writer,
    trash: createTrash({ root, versions, events, locks, moved: (from, to) => comments.moved(from, to) }),
    renamer: createRenamer({
      root,
      writer,
      versions,
      created,
      events,
      skipDirs,
      moved: (from, to) => {
        movedNotes.told(from, to);
        comments.moved(from, to);
        options.moved?.(from, to);
      },
      journal: new RenameJournal(config.dataDir),
    }),
    movedNotes,
    sessions: createSessionStore(),
    loginGuard: new LoginGuard(),
    password,
    readSettings,
    versionsEnabled,
    posts: options.posts ?? (() => Promise.reject(new Error('no public site is running to list the posts'))),
    settings: createSettingsService({
      config,
      readSettings,
      saved: () => {
        travel.settingsSaved();
        settingsEvents.changed();
      },
    }),
    sync,
    scheduler,
    travel,
    // Titles in the site's language, as the public model reads them.
    collections: createDeclaredCollections(config.vaultDir, skipDirs, async () => modelSettings(siteSettingsOf(await readSettings(), config), config).language),
    notes,
    outsideMoves,
    comments,
    webmentions,
    siteStylesheets: options.siteStylesheets ?? (() => Promise.resolve(null)),
    siteHealth: new SiteHealth({ vaultDir: config.vaultDir, skipDirs, buildWarnings: options.buildWarnings ?? (async () => []) }),
    requireSyncAllowed() {
      if (!password.isSet()) throw refuse('needs_password', 'Set an admin password before using backup & sync.');
    },
    async start() {
      notes.start();
      void outsideMoves.start();
      await travel.start();
      // spec 5.1: backup & sync is unusable until an admin password exists.
      if (password.isSet()) await scheduler.start();
    },
    async close() {
      const stopping = (what: string) => (err: unknown) => log.warn(`while stopping ${what}: ${err}`);
      await travel.close().catch(stopping('the settings mirror'));
      scheduler.stop();
      notes.close();
      outsideMoves.close();
      await sync.close().catch(stopping('sync'));
      // A source being checked gets a moment to finish; the database closes after it.
      await Promise.race([webmentions.idle(), new Promise((r) => setTimeout(r, 1000).unref())]);
      comments.close();
    },
  };
}
