// One logger for the process. Secrets registered here are scrubbed from every
// line before it is written (spec 5.4: no token in a log line).
type Level = 'info' | 'warn' | 'error';

const secrets = new Set<string>();
const warnedOnce = new Set<string>();
let quiet = false;

export function addSecret(secret: string | null | undefined): void {
  if (secret && secret.length >= 4) secrets.add(secret);
}

export function removeSecret(secret: string | null | undefined): void {
  if (secret) secrets.delete(secret);
}

/** Removes registered secrets and URL user info (`https://user:pw@host`). */
export function scrub(text: string): string {
  let out = text.replace(/([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/@]+@/gi, '$1***@');
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}

// C0 and C1 controls but tab and line feed, DEL, the line and paragraph separators, and the
// bidi controls: text a note or a visitor wrote must not move an operator's cursor, colour or
// clear the terminal, or reorder what a line reads.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text safe on a terminal and in a log: each control character written as its escape (`\u001b`),
 * and each line after the first indented (`oneLine`: written as `\n`), so no text can pass
 * for a log entry of its own.
 */
export function printable(text: string, oneLine = false): string {
  const out = text.replace(UNPRINTABLE, escaped);
  return oneLine ? out.replace(/\n/g, '\\n') : out.replace(/\n/g, '\n    ');
}

function write(level: Level, message: string): void {
  if (quiet && level === 'info') return;
  const line = `${new Date().toISOString()} ${level.padEnd(5)} ${printable(scrub(message))}\n`;
  process.stderr.write(line);
}

export const log = {
  info: (message: string) => write('info', message),
  warn: (message: string) => write('warn', message),
  error: (message: string) => write('error', message),
  /** Logs a warning only the first time `key` is seen (e.g. one malformed note). */
  warnOnce(key: string, message: string) {
    if (warnedOnce.has(key)) return;
    warnedOnce.add(key);
    write('warn', message);
  },
  setQuiet(value: boolean) {
    quiet = value;
  },
};
