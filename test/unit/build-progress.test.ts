// A long build's progress: silent for the first second, then one line that
// rewrites itself on a terminal, plain lines at each phase (and every few seconds) in a log,
// nothing with --quiet; the terminal line is cleared when the build is done.
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../scripts/cli/progress.ts';

function fakeStream(isTTY: boolean) {
  let text = '';
  return { stream: { isTTY, write: (s: string) => ((text += s), true) } as unknown as NodeJS.WritableStream & { isTTY: boolean }, text: () => text };
}

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('progress', () => {
  it('on a terminal: nothing in the first second, then one line rewritten in place, cleared at the end', () => {
    const out = fakeStream(true);
    const c = clock();
    const p = createProgress({ stream: out.stream, quiet: false, now: c.now });
    p.update({ phase: 'read' });
    c.advance(500);
    p.update({ phase: 'render', done: 0, total: 800 });
    expect(out.text()).toBe('');
    c.advance(700);
    p.update({ phase: 'render', done: 400, total: 800 });
    c.advance(200);
    p.update({ phase: 'render', done: 800, total: 800 });
    p.done();
    expect(out.text()).toBe('\r\x1b[2Kbuild: rendering pages 400/800 (1.2 s)\r\x1b[2Kbuild: rendering pages 800/800 (1.4 s)\r\x1b[2K');
  });

  it('in a log: plain lines, one per phase and one every few seconds, never a control character', () => {
    const out = fakeStream(false);
    const c = clock();
    const p = createProgress({ stream: out.stream, quiet: false, now: c.now, everyMs: 5000 });
    c.advance(1500);
    p.update({ phase: 'read' });
    c.advance(1000);
    p.update({ phase: 'plan' });
    c.advance(100);
    p.update({ phase: 'render', done: 0, total: 9000 });
    c.advance(1000);
    p.update({ phase: 'render', done: 400, total: 9000 });
    c.advance(5000);
    p.update({ phase: 'render', done: 4000, total: 9000 });
    p.done();
    expect(out.text().split('\n')).toEqual([
      'build: reading the vault (1.5 s)',
      'build: planning the site (2.5 s)',
      'build: rendering pages 0/9000 (2.6 s)',
      'build: rendering pages 4000/9000 (8.6 s)',
      '',
    ]);
  });

  it('--quiet writes nothing, however long the build', () => {
    const out = fakeStream(true);
    const c = clock();
    const p = createProgress({ stream: out.stream, quiet: true, now: c.now });
    c.advance(60_000);
    p.update({ phase: 'render', done: 1, total: 2 });
    p.done();
    expect(out.text()).toBe('');
  });
});
