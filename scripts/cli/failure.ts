// How a command that broke is told on stderr (exit code 1): one line with its cause. A
// stack follows only for a bug (an error without a system code), where it is the cause.

/** A failure the command names in one sentence: the line is the whole story. */
export class CommandFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandFailure';
  }
}

/** A Node system error (`ENOTDIR`, `EADDRINUSE`…): its message names the call and the path. */
const isSystemError = (err: unknown): err is NodeJS.ErrnoException => err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string';

/** The text `vault-service <command>` prints when it fails with `err`. */
export function failureText(command: string, err: unknown): string {
  const line = `vault-service: ${command} failed: ${err instanceof Error ? err.message : String(err)}\n`;
  if (err instanceof CommandFailure || isSystemError(err) || !(err instanceof Error) || !err.stack) return line;
  // The stack's first line repeats the message.
  return line + err.stack.split('\n').slice(1).join('\n') + '\n';
}
