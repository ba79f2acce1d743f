// Reads a new password: from the first argument, from standard input when piped,
// or typed twice at a terminal without echo.
import readline from 'node:readline';

async function readHidden(question: string): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const out = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WriteStream };
  out._writeToOutput = (s: string) => {
    if (s.includes(question)) out.output.write(s);
  };
  const answer = await new Promise<string>((resolve) => rl.question(question, resolve));
  rl.close();
  process.stdout.write('\n');
  return answer;
}

async function readPiped(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.replace(/\r?\n$/, '');
}

export async function promptNewPassword(argv: string[]): Promise<string> {
  if (argv[0]) return argv[0];
  if (!process.stdin.isTTY) return readPiped();
  const first = await readHidden('New admin password: ');
  const second = await readHidden('Again: ');
  if (first !== second) throw new Error('The two passwords differ.');
  return first;
}

export function checkPasswordStrength(password: string): string | null {
  if (password.length < 8) return 'Use at least 8 characters.';
  return null;
}
