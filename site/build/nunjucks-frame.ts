// Nunjucks's template scope, without the cost of naming a variable. Its Frame.set splits the
// name at each call (`name.split('.')`): every loop turn of a template sets seven `loop.*`
// names, each macro call its arguments. At 10,000 notes those splits were the build's
// largest single JavaScript cost on both threads (0.19 s of 6.8 s CPU). This `set` does what
// Nunjucks's does, with each name's parts split once (template code names its variables, so
// they are few).
import nunjucks from 'nunjucks';

type Scope = Record<string, unknown>;

const partsOf = new Map<string, string[]>();
/** Names are the templates' own; a cap all the same, should something name them from data. */
const MOST_NAMES = 10_000;

function split(name: string): string[] {
  let parts = partsOf.get(name);
  if (parts === undefined) {
    parts = name.split('.');
    if (partsOf.size < MOST_NAMES) partsOf.set(name, parts);
  }
  return parts;
}

/** Nunjucks's runtime.Frame#set (nunjucks/src/runtime.js), its name split once. */
function set(this: nunjucks.Frame, name: string, value: unknown, resolveUp?: boolean): void {
  const parts = split(name);
  if (resolveUp) {
    const frame = this.resolve(parts[0]!, true);
    if (frame) {
      frame.set(name, value);
      return;
    }
  }
  let scope = this.variables;
  for (let i = 0; i < parts.length - 1; i++) {
    const id = parts[i]!;
    if (!scope[id]) scope[id] = {};
    scope = scope[id] as Scope;
  }
  scope[parts[parts.length - 1]!] = value;
}

let installed = false;

/** Puts this `set` in place of Nunjucks's, once per process (a thread has its own). */
export function installFrameSet(): void {
  if (installed) return;
  installed = true;
  nunjucks.runtime.Frame.prototype.set = set;
}
