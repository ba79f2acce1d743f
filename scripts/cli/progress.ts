// Progress of a long build: nothing for the first second, then one line that
// updates itself on a terminal, or a plain line every few seconds (and at each new phase)
// when the output is a log; nothing at all with --quiet.
import type { BuildProgress } from '../../site/build/site-builder.ts';

export interface ProgressOptions {
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  quiet: boolean;
  /** Silence before the first line (ms). */
  afterMs?: number;
  /** Between two plain lines in the same phase (ms). */
  everyMs?: number;
  now?: () => number;
}

export interface Progress {
  update(progress: BuildProgress): void;
  /** Clears the updating line; nothing is written after. */
  done(): void;
}

const PHASES: Record<BuildProgress['phase'], string> = {
  read: 'reading the vault',
  plan: 'planning the site',
  render: 'rendering pages',
  files: 'writing assets and attachments',
  finish: 'finishing pages',
};

export function describe(p: BuildProgress): string {
  const what = PHASES[p.phase];
  return p.total ? `${what} ${p.done ?? 0}/${p.total}` : what;
}

export function createProgress(options: ProgressOptions): Progress {
  if (options.quiet) return { update() {}, done() {} };
  const { stream } = options;
  const tty = stream.isTTY === true;
  const now = options.now ?? Date.now;
  const started = now();
  const afterMs = options.afterMs ?? 1000;
  const everyMs = options.everyMs ?? (tty ? 100 : 5000);
  let current: BuildProgress = { phase: 'read' };
  let lastText = '';
  let lastAt = -Infinity;
  let lastPhase: string | null = null;
  let drawn = false;
  let finished = false;

  const line = () => `build: ${describe(current)} (${((now() - started) / 1000).toFixed(1)} s)`;

  function draw(force: boolean): void {
    const t = now();
    if (finished || t - started < afterMs) return;
    const phaseChanged = current.phase !== lastPhase;
    if (!force && !phaseChanged && t - lastAt < everyMs) return;
    const text = line();
    if (tty) {
      stream.write(`\r\x1b[2K${text}`);
      drawn = true;
    } else if (text !== lastText) {
      stream.write(`${text}\n`);
    }
    lastText = text;
    lastAt = t;
    lastPhase = current.phase;
  }

  // A phase can be long without news (reading a large vault): the clock keeps the line alive.
  const timer = setInterval(() => draw(true), tty ? 250 : everyMs);
  timer.unref();
  // The first line comes as soon as the first second is over, whatever the phase.
  const first = setTimeout(() => draw(true), afterMs);
  first.unref();

  return {
    update(progress) {
      current = progress;
      draw(false);
    },
    done() {
      finished = true;
      clearInterval(timer);
      clearTimeout(first);
      if (tty && drawn) stream.write('\r\x1b[2K');
    },
  };
}
