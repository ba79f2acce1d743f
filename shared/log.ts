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

function write(level: Level, message: string): void {
  if (quiet && level === 'info') return;
  const line = `${new Date().toISOString()} ${level.padEnd(5)} ${scrub(message)}\n`;
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
