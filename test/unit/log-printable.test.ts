// What a note or a visitor wrote reaches the operator's terminal as text: a control character
// is written as its escape and a line break cannot start a log entry of its own (a link to
// `Evil%0A2026-…%20error` printed a forged entry; `\x1bc` would reset the terminal).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { log, printable } from '../../shared/log.ts';
import { formatWarning } from '../../shared/model/build-warnings.ts';

afterEach(() => vi.restoreAllMocks());

const HOSTILE = 'a\u001bcb\u001b[31mred\r\u0007\u009b\u2028\u202eevil\u2066x\u0000';

describe('text shown on a terminal', () => {
  it('writes each control character as its escape, and keeps tabs and letters of every script', () => {
    expect(printable(HOSTILE)).toBe('a\\u001bcb\\u001b[31mred\\u000d\\u0007\\u009b\\u2028\\u202eevil\\u2066x\\u0000');
    expect(printable('tab\there, مرحبا, 日本')).toBe('tab\there, مرحبا, 日本');
  });

  it('indents the lines after the first (a stack stays readable), or writes them as \\n on one line', () => {
    expect(printable('Error: x\n    at f (a.js:1)')).toBe('Error: x\n        at f (a.js:1)');
    expect(printable('Evil\n2026-12-06T00:00:00.000Z error forged', true)).toBe('Evil\\n2026-12-06T00:00:00.000Z error forged');
  });

  it('a log entry: one entry, whatever its message holds', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
    log.warn(`links to "Evil\n2026-12-06T00:00:00.000Z error forged" ${HOSTILE}`);
    expect(written).toHaveLength(1);
    const lines = written[0]!.split('\n').filter((l) => l !== '');
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z warn {2}links to "Evil$/);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {4}/);
    expect(written[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });

  it('a build warning is one line', () => {
    const line = formatWarning({ note: 'A.md', kind: 'missing-link', message: `links to "Evil\n2026 error forged${HOSTILE}", which does not exist` });
    expect(line).not.toContain('\n');
    expect(line).toContain('Evil\\n2026 error forged');
    expect(line).not.toContain('\u001b');
  });
});
