// Two of Nunjucks's runtime functions, doing what they did at less cost: every page of the
// site runs them hundreds of times.
//
// - Frame#set (a template's scope) split the variable's name at each call
//   (`name.split('.')`): every loop turn sets seven `loop.*` names, each macro call its
//   arguments. At 10,000 notes those splits were the build's largest single JavaScript cost
//   on both threads (0.19 s of 6.8 s CPU). Here each name's parts are split once (template
//   code names its variables, so they are few).
// - lib.escape (every `{{ value }}` of an autoescaped template) ran a global replace with a
//   callback on every value. Most hold nothing to escape: one test answers them (63 ns a call
//   against 104-128, measured on the site's kinds of values).
// Written against @11ty/nunjucks 3.3.0, pinned exactly (test/unit/library-pins.test.ts).
// Retired when @11ty/nunjucks's Frame#set splits a name once and lib.escape returns a value with nothing to escape untouched.
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

const ESCAPABLE = /[&"'<>\\]/;

let installed = false;

/** Puts these in place of Nunjucks's, once per process (a thread has its own). */
export function installFastRuntime(): void {
  if (installed) return;
  installed = true;
  nunjucks.runtime.Frame.prototype.set = set;
  // Nunjucks's own escape for any value that holds something to escape (the same set of characters).
  const escape = nunjucks.lib.escape;
  nunjucks.lib.escape = (value: string) => (ESCAPABLE.test(value) ? escape(value) : value);
}
