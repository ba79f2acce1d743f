// The public server's handle on the build process: it queues vault changes,
// coalesces bursts, sends one build at a time and reports each finished build.
// The builder is a child process, not a thread: its memory (the vault model, the
// rendered pages) is its own, and a crash or out-of-memory there never takes the server down.
import { fork, type ChildProcess } from 'node:child_process';
import { readJson, writeJsonAtomic } from '../../shared/atomic-write.ts';
import { dataPath, DATA_FILES } from '../../shared/data-path.ts';
import { log } from '../../shared/log.ts';
import { builderEnv } from '../../shared/malloc-env.ts';
import { VaultEntries } from '../../shared/vault-walk.ts';
import { BUILD_V8_FLAGS, BUILDER_SEMI_SPACE_MB, estimateTextBytes, heapForLive, heapForVault, MAX_HEAP_MB, semiSpaceForNotes, START_HEAP_MB } from './build-heap.ts';
import { CODE_EXT, codeFile } from '../../shared/project-dir.ts';
import { WarningLog, type BuildWarning } from '../../shared/model/build-warnings.ts';
import type { PostItem, PostQuery, PostRef } from '../../shared/model/posts.ts';
import type { BuildResult, SiteBuilderOptions } from './site-builder.ts';
import type { BuilderReply, BuilderRequest } from './builder-protocol.ts';

// The build process runs as the server does: compiled, or from source through tsx (resolved here,
// so the child finds tsx whatever the working directory is; the installed package has none).
const BUILDER_PROCESS_FILE = codeFile('site/build/builder-process');
const LOADER = CODE_EXT === '.ts' ? ['--import', import.meta.resolve('tsx')] : [];

const RETRY_MS = 5_000;
/** How long a burst of changes is waited for once one is under way (BuilderClientOptions.settleMs). */
const SETTLE_MS = 15;
/** Quiet time after the last build before deferred work (a new search base) is done. */
const TIDY_QUIET_MS = 1_500;
/** How long a stopping build process has to exit on its own (a chunk of pages takes well under a second). */
const STOP_GRACE_MS = 5_000;
export interface BuilderClientOptions {
  builder: SiteBuilderOptions;
  /** Called after every build that changed something. */
  onBuilt: (result: BuildResult) => void;
  /** Called when a build fails (it is retried a few seconds later). */
  onFailed?: (message: string) => void;
  /** Coalescing window for bursts of changes (ms): the first change after a quiet moment goes at once. */
  settleMs?: number;
}

export class BuilderClient {
  private builderProcess: ChildProcess | null = null;
  private heapMB = START_HEAP_MB;
  /** The young generation's semi-space cap (null: V8's default), sized with the heap. */
  private semiSpaceMB: number | null = BUILDER_SEMI_SPACE_MB;
  private sized = false;
  /** The builder is being stopped to start again (a larger heap, the vault's line breaks: restart). */
  private restarting = false;
  private nextId = 1;
  private waiting = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();
  private pending = new Set<string>();
  /** Notes whose comments or mentions changed since the last pass. */
  private discussed = new Set<string>();
  /** Moves the admin made since the last pass, [from, to], in order. */
  private moves: [string, string][] = [];
  /** The next pass must build everything ('full') or resume the remembered generation. */
  private needBuild: 'full' | 'resume' | null = null;
  /** Nothing is sent before the first full() or resume(): changes wait for it. */
  private started = false;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  /** When the last vault change came (performance.now()). */
  private lastChangeAt = -Infinity;
  private closed = false;
  private idleWaiters: Array<() => void> = [];
  /** The builder has deferred work for a quiet moment (BuildResult.tidy). */
  private tidyDue = false;
  private tidyTimer: NodeJS.Timeout | null = null;
  /** Each warning of the vault is logged once, not after every rebuild. */
  private warningLog = new WarningLog((line) => log.warn(line));
  /** The newest build's whole list (the build process sends it when it changed). */
  private latestWarnings: BuildWarning[] = [];

  constructor(private readonly options: BuilderClientOptions) {}

  private spawn(): ChildProcess {
    const child = fork(BUILDER_PROCESS_FILE, [], {
      // --expose-gc: the builder collects once after a whole-site pass (site/build/builder-process.ts).
      execArgv: [...LOADER, `--max-old-space-size=${this.heapMB}`, ...(this.semiSpaceMB ? [`--max-semi-space-size=${this.semiSpaceMB}`] : []), '--expose-gc', ...BUILD_V8_FLAGS],
      env: builderEnv(process.env),
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.send({ id: 0, type: 'init', options: this.options.builder } satisfies BuilderRequest);
    child.on('message', (reply: BuilderReply) => {
      if (reply.id === null) {
        if ('liveHeapMB' in reply) this.measured(reply.liveHeapMB);
        // Made in the background: the next pass plans them in, like a changed attachment.
        else for (const p of reply.imagesReady) this.changed(p);
        return;
      }
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (reply.ok && reply.warnings) {
        this.latestWarnings = reply.warnings;
        this.warningLog.report(reply.warnings);
      }
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(new Error(reply.error));
    });
    child.on('error', (err) => log.error(`the site build process failed: ${err.message}`));
    child.on('exit', (code) => {
      if (this.builderProcess !== child) return;
      this.builderProcess = null;
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`the build process stopped (${code})`));
      this.waiting.clear();
      if (this.restarting) {
        // Stopped to take a larger heap, or the vault's line breaks: the remembered generation is
        // brought up to date (made again whole when the line breaks changed its key), not rebuilt.
        this.restarting = false;
        this.needBuild = 'resume';
        this.schedule(0);
      } else if (!this.closed) {
        if (code !== 0 && this.heapMB < MAX_HEAP_MB) this.heapMB *= 2;
        log.warn(`the site build process stopped (${code}); starting a new one with a ${this.heapMB} MB heap`);
        this.needBuild = 'full';
        this.schedule();
      }
    });
    return child;
  }

  /**
   * The builder's live heap after a whole-site pass: when it leaves the cap too little room,
   * the builder is started again with one that fits, once it is idle (heapForLive).
   */
  private measured(liveMB: number): void {
    const next = heapForLive(this.heapMB, liveMB);
    if (next === null || this.closed || this.restarting) return;
    log.info(`the site build process keeps ${liveMB} MB live: starting it again with a ${next} MB heap (was ${this.heapMB} MB)`);
    this.heapMB = next;
    // Remembered, so the next start gives the builder this cap at once, not after a first build.
    void writeJsonAtomic(this.heapFile, { heapMB: next }).catch((err) => log.warn(`could not remember the builder's heap: ${(err as Error).message}`));
    this.restart();
  }

  /** Starts the build process again once it is idle: it reads the vault's settings as it starts. */
  restart(): void {
    void this.idle().then(() => {
      if (this.closed || !this.builderProcess || this.restarting) return;
      this.restarting = true;
      this.builderProcess.kill();
    });
  }

  private get heapFile(): string {
    return dataPath(this.options.builder.config.dataDir, DATA_FILES.builderHeap);
  }

  /** Before the first builder starts: a cap fitting the vault's size (one walk of its names, a sample of their sizes). */
  private async sizeHeap(): Promise<void> {
    if (this.sized) return;
    this.sized = true;
    const entries = new VaultEntries(this.options.builder.config.vaultDir, this.options.builder.skipDirs);
    const notes = await entries.notes().catch(() => []);
    const textBytes = await estimateTextBytes(notes, async (note) => (await entries.stat(note))?.size ?? null);
    const remembered = await readJson<{ heapMB?: unknown } | null>(this.heapFile, null).catch(() => null);
    const measured = typeof remembered?.heapMB === 'number' && Number.isFinite(remembered.heapMB) ? Math.min(MAX_HEAP_MB, remembered.heapMB) : 0;
    this.heapMB = Math.max(this.heapMB, heapForVault({ notes: notes.length, textBytes }), measured);
    this.semiSpaceMB = semiSpaceForNotes(notes.length);
  }

  private async send<T>(request: BuilderRequest): Promise<T> {
    if (!this.builderProcess) {
      await this.sizeHeap();
      this.builderProcess ??= this.spawn();
    }
    return new Promise((resolve, reject) => {
      this.waiting.set(request.id, { resolve: resolve as (r: unknown) => void, reject });
      this.builderProcess!.send(request);
    });
  }

  /** What the newest build found wrong in the vault (GET /api/site/warnings). */
  warnings(): readonly BuildWarning[] {
    return this.latestWarnings;
  }

  /** Asks for a full build (at start, after the build process crashed). */
  full(): void {
    this.start('full');
  }

  /** At start, with the remembered generation already served: bring it up to date. */
  resume(): void {
    this.start('resume');
  }

  private start(mode: 'full' | 'resume'): void {
    this.started = true;
    this.needBuild = mode;
    this.schedule(0);
  }

  /** The published posts from the builder's model, once every change seen so far is in it. */
  async posts(): Promise<PostItem[]> {
    await this.idle();
    return this.send<PostItem[]>({ id: this.nextId++, type: 'posts' });
  }

  /** The published post a comment or mention names, once every change seen so far is in the model. */
  async post(query: PostQuery): Promise<PostRef | null> {
    await this.idle();
    return this.send<PostRef | null>({ id: this.nextId++, type: 'post', query });
  }

  /** A note's approved comments or mentions changed: its article (and lists whose counts moved) re-render. */
  discussionChanged(notePath: string): void {
    this.discussed.add(notePath);
    this.schedule();
  }

  /** The admin moved a note or folder: its old addresses answer 301 (CONTRACT §7). */
  moved(from: string, to: string): void {
    this.moves.push([from, to]);
    this.schedule();
  }

  /** A vault path (or the settings, as '') changed. */
  changed(p: string): void {
    // A lone change (a save) is built at once; one that follows another within the window
    // is part of a burst (a git pull, a folder copied in), waited for so one pass takes it.
    const now = performance.now();
    const lone = now - this.lastChangeAt >= this.settleMs;
    this.lastChangeAt = now;
    this.pending.add(p);
    this.schedule(lone ? 0 : this.settleMs);
  }

  private get settleMs(): number {
    return this.options.settleMs ?? SETTLE_MS;
  }

  private schedule(delay = this.settleMs): void {
    if (this.closed || this.running || this.timer || !this.started) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, delay);
  }

  private async run(): Promise<void> {
    if (this.running || this.closed) return;
    if (!this.queued()) {
      for (const w of this.idleWaiters.splice(0)) w();
      return;
    }
    this.running = true;
    const mode = this.needBuild;
    // A resumed pass reads the whole vault: the changes queued so far are in it.
    const paths = [...this.pending].filter((p) => p !== '');
    const discussed = [...this.discussed];
    // Told to a full or resumed pass too: the address memory outlives the model (a move made while one waited was lost).
    const moves = this.moves;
    this.needBuild = null;
    this.pending.clear();
    this.discussed.clear();
    this.moves = [];
    try {
      const id = this.nextId++;
      // A full or resumed pass reads every discussion anew.
      const result = await this.send<BuildResult | null>(mode ? { id, type: mode, moves } : { id, type: 'apply', paths, discussed, moves });
      if (result) {
        this.tidyDue = result.tidy === true;
        this.options.onBuilt(result);
      }
    } catch (err) {
      log.error(`site build failed: ${(err as Error).message}`);
      this.options.onFailed?.((err as Error).message);
      if (mode) this.needBuild = 'full';
      // The next pass is told them again (a move told twice leads to the same place).
      this.moves.unshift(...moves);
      this.running = false;
      // Try again later, not in a loop: a broken template stays broken until fixed.
      this.schedule(RETRY_MS);
      return;
    } finally {
      this.running = false;
    }
    if (this.queued()) this.schedule();
    else {
      for (const w of this.idleWaiters.splice(0)) w();
      this.scheduleTidy();
    }
  }

  /** Deferred work waits for a quiet moment: each build that comes first starts the wait again. */
  private scheduleTidy(): void {
    if (!this.tidyDue || this.closed) return;
    if (this.tidyTimer) clearTimeout(this.tidyTimer);
    this.tidyTimer = setTimeout(() => {
      this.tidyTimer = null;
      void this.tidy();
    }, TIDY_QUIET_MS);
    this.tidyTimer.unref();
  }

  /** One step of the deferred work; the next follows at once unless a change came meanwhile, which goes first. */
  private async tidy(): Promise<void> {
    // Changes first: the build that takes them starts the quiet wait again.
    if (this.running || this.timer || this.queued() || this.closed || !this.tidyDue) return;
    this.running = true;
    this.tidyDue = false;
    try {
      const result = await this.send<BuildResult | null>({ id: this.nextId++, type: 'tidy' });
      this.tidyDue = result?.tidy === true;
      if (result && (result.rendered > 0 || result.removals.length > 0)) this.options.onBuilt(result);
    } catch (err) {
      log.warn(`deferred site work failed: ${(err as Error).message}`);
    } finally {
      this.running = false;
    }
    if (this.queued()) this.schedule();
    else {
      for (const w of this.idleWaiters.splice(0)) w();
      if (this.tidyDue && !this.closed) {
        this.tidyTimer = setTimeout(() => {
          this.tidyTimer = null;
          void this.tidy();
        }, 0);
        this.tidyTimer.unref();
      }
    }
  }

  /** Something waits for a pass. */
  private queued(): boolean {
    return this.needBuild !== null || this.pending.size > 0 || this.discussed.size > 0 || this.moves.length > 0;
  }

  /** Resolves once nothing is queued or running. */
  idle(): Promise<void> {
    if (!this.running && !this.timer && !this.queued()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.tidyTimer) clearTimeout(this.tidyTimer);
    const child = this.builderProcess;
    this.builderProcess = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      // It exits between two tasks (site/build/builder-process.ts); one that does not in time is killed.
      const late = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(late);
    }
  }
}
