// A full build's pages written by a thread of their own. Making a file costs the kernel
// CPU, a varying amount on ext4 (docs/dev/performance.md), and it was a large share of a
// small vault's build on the thread that renders. Here each page's text is handed to a
// small worker that encodes and writes it on the other core while this thread renders on
// (the text is copied into the message as it is: encoding it here, to transfer the bytes,
// cost this thread more than the copy).
//
// One queue and one writer, so files are written in the order they came: a file written
// twice ends with the later text. The queue is bounded: past MAX_QUEUED files not yet
// written, this thread writes the next file itself (a file it never handed over: else it
// waits for the writer, Atomics.wait), so a writer that falls behind (making files can
// cost more than rendering them) shares the work instead of holding the site in memory.
import { Worker } from 'node:worker_threads';
import { writeMakingFolder } from './write-pages.ts';

/** Files handed over and not yet written before this thread writes the next itself. */
const MAX_QUEUED = 64;
/** With no file written for this long while `write` waits, the writer is taken for dead. */
const STALL_MS = 60_000;

// Slots of the shared counters.
const WRITTEN = 0;
const FAILED = 1;

// The writer's own code: CommonJS, run from this text (the bundle has no file for it); its
// `write` is write-pages.ts writeMakingFolder.
// It never throws: a failed write is told once (the first), and every later file is
// counted without being written, so a waiting `write` always wakes.
const WRITER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const state = new Int32Array(workerData.state);
const write = (target, body) => {
  try {
    writeFileSync(target, body);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, body);
  }
};
parentPort.on('message', (message) => {
  if (message === 'end') return parentPort.postMessage({ ended: true });
  if (Atomics.load(state, ${FAILED}) === 0) {
    try {
      write(message[0], message[1]);
    } catch (err) {
      Atomics.store(state, ${FAILED}, 1);
      parentPort.postMessage({ failed: String(err && err.message), code: err && err.code });
    }
  }
  Atomics.add(state, ${WRITTEN}, 1);
  Atomics.notify(state, ${WRITTEN});
});
`;

export class FileWriter {
  private readonly worker: Worker;
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private handed = 0;
  /** Files handed to the writer: one of them written again must follow it through the queue. */
  private readonly handedFiles = new Set<string>();
  private failure: Error | null = null;
  private ended: Promise<void>;

  constructor(private readonly maxQueued = MAX_QUEUED) {
    this.worker = new Worker(WRITER_CODE, { eval: true, workerData: { state: this.state.buffer } });
    this.ended = new Promise<void>((resolve) => {
      this.worker.on('message', (message: { ended?: true; failed?: string; code?: string }) => {
        if (message.failed !== undefined) this.failure ??= Object.assign(new Error(`a page of the site could not be written: ${message.failed}`), { code: message.code });
        if (message.ended) resolve();
      });
      this.worker.on('error', (err) => {
        this.failure ??= err;
        resolve();
      });
      this.worker.on('exit', () => {
        this.failure ??= new Error('the thread writing the site ended early');
        resolve();
      });
    });
  }

  /** Writes `body` to `target` (a path checked by the caller), its folder made when missing. */
  write(target: string, body: string): void {
    if (this.failure || Atomics.load(this.state, FAILED) !== 0) return;
    if (this.handed - Atomics.load(this.state, WRITTEN) >= this.maxQueued) {
      if (!this.handedFiles.has(target)) return writeMakingFolder(target, body);
      this.waitBelow(this.maxQueued - 1);
    }
    this.worker.postMessage([target, body]);
    this.handed += 1;
    this.handedFiles.add(target);
  }

  /** Waits for every file handed over, then ends the thread; rejects with the first failure. */
  async close(): Promise<void> {
    this.worker.postMessage('end');
    await this.ended;
    void this.worker.terminate();
    if (this.failure) throw this.failure;
  }

  /** Ends the thread at once, whatever it still holds (a build that failed). */
  abort(): void {
    void this.worker.terminate();
  }

  private waitBelow(queued: number): void {
    let written = Atomics.load(this.state, WRITTEN);
    let since = Date.now();
    while (this.handed - written > queued) {
      Atomics.wait(this.state, WRITTEN, written, 1_000);
      const now = Atomics.load(this.state, WRITTEN);
      if (now !== written) since = Date.now();
      else if (Date.now() - since > STALL_MS) throw new Error('the thread writing the site stopped writing');
      written = now;
    }
  }
}
