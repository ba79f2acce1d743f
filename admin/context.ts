// Builds the admin's domain objects once at start; routes receive this context.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Config } from '../shared/config.ts';
import { CreatedStore } from '../shared/created-store.ts';
import { configureGitRunner } from '../shared/git-safety.ts';
import type { PostItem } from '../shared/model/posts.ts';
import { createSettingsReader, type Settings } from '../shared/settings.ts';
import { VaultEvents } from '../shared/vault-events.ts';
import { VaultRoot } from '../shared/vault-path.ts';
import { loadAdminPassword, type AdminPassword } from './auth/admin-password.ts';
import { createRateLimiter, type RateLimiter } from './auth/rate-limit.ts';
import { createSessionStore, type SessionStore } from './auth/sessions.ts';
import { createNoteWriter, type NoteWriter } from './vault/note-writer.ts';
import { createRenamer } from './vault/rename.ts';
import { createTrash } from './vault/trash.ts';
import { VersionStore, type VersionLimits } from './versions/version-store.ts';

export interface AdminContext {
  config: Config;
  root: VaultRoot;
  /** Absolute folders the vault walk leaves out (the data directory when inside the vault). */
  skipDirs: string[];
  events: VaultEvents;
  created: CreatedStore;
  versions: VersionStore;
  writer: NoteWriter;
  trash: ReturnType<typeof createTrash>;
  renamer: ReturnType<typeof createRenamer>;
  sessions: SessionStore;
  loginLimiter: RateLimiter;
  password: AdminPassword;
  readSettings: () => Promise<Settings>;
  versionsEnabled: () => Promise<boolean>;
  /** GET /api/posts: the published posts from the one vault model (the public site's builder). */
  posts: () => Promise<PostItem[]>;
  /**
   * Lifecycle hooks a route module may register for its own services (the sync
   * scheduler, the settings mirror): `start` runs once before the server listens,
   * `close` when it stops. A start hook must not block on the network for long.
   */
  hooks: { start: Array<() => Promise<void>>; close: Array<() => Promise<void>> };
}

export interface AdminContextOptions {
  events?: VaultEvents;
  /** Handed in by the composer: the public site owns the vault model. */
  posts?: () => Promise<PostItem[]>;
  versionLimits?: Partial<VersionLimits>;
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The data directory, when it lies inside the vault (spec 2.3, Appendix A). */
export async function dataDirInVault(config: Config): Promise<string | null> {
  const vault = await fs.realpath(config.vaultDir);
  const data = await fs.realpath(config.dataDir);
  return isInside(vault, data) ? path.join(config.vaultDir, path.relative(vault, data)) : null;
}

export async function createAdminContext(config: Config, options: AdminContextOptions = {}): Promise<AdminContext> {
  configureGitRunner({ repoPrograms: config.gitHooks, networkTimeoutMs: config.gitNetworkTimeoutMs });
  const inVault = await dataDirInVault(config);
  const skipDirs = inVault ? [inVault] : [];
  const root = new VaultRoot(config.vaultDir, [await fs.realpath(config.dataDir)]);
  const events = options.events ?? new VaultEvents();
  const created = new CreatedStore(config.dataDir);
  await created.load();
  const versions = new VersionStore(config.dataDir, options.versionLimits);
  void versions.load();
  const readSettings = createSettingsReader(config.dataDir);
  // spec 9: the Keep note versions setting wins; NOTE_VERSIONS is the instance default.
  const versionsEnabled = async () => (await readSettings()).versions.keep ?? config.noteVersions;
  const writer = createNoteWriter({ root, versions, created, events, versionsEnabled });
  return {
    config,
    root,
    skipDirs,
    events,
    created,
    versions,
    writer,
    trash: createTrash({ root, versions, events }),
    renamer: createRenamer({ root, writer, versions, created, events, skipDirs }),
    sessions: createSessionStore(),
    loginLimiter: createRateLimiter(10, 60_000),
    password: await loadAdminPassword(config),
    readSettings,
    versionsEnabled,
    posts: options.posts ?? (() => Promise.reject(new Error('no public site is running to list the posts'))),
    hooks: { start: [], close: [] },
  };
}
