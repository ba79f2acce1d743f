// Line-level reading and editing of a note's frontmatter (spec 2.4), enough for the
// tree actions: read a key, set a scalar, set a list. Every other line, comment and
// spacing of the block is left exactly as the author wrote it.

interface Block {
  /** Lines between the two `---` fences. */
  lines: string[];
  /** The text after the closing fence. */
  body: string;
  /** Line ending of the note. */
  eol: string;
}

const KEY_LINE = /^([A-Za-z_][\w-]*)\s*:(.*)$/;

function split(text: string): Block | null {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return null;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trim() === '---' || lines[i]!.trim() === '...') {
      return { lines: lines.slice(1, i), body: lines.slice(i + 1).join(eol), eol };
    }
  }
  return null;
}

/** Index range [start, end) of a key's line plus its indented or `- ` continuation lines. */
function findKey(lines: string[], key: string): [number, number] | null {
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i]!.match(KEY_LINE);
    if (!m || m[1] !== key) continue;
    let end = i + 1;
    while (end < lines.length && /^(\s+\S|\s*-\s)/.test(lines[end]!) && !KEY_LINE.test(lines[end]!)) end++;
    return [i, end];
  }
  return null;
}

function unquote(s: string): string {
  const v = s.trim();
  if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) return v.slice(1, -1);
  return v;
}

/** A key's raw value: a string, a list, or undefined when absent. */
export function readKey(text: string, key: string): string | string[] | undefined {
  const block = split(text);
  if (!block) return undefined;
  const range = findKey(block.lines, key);
  if (!range) return undefined;
  const first = block.lines[range[0]]!.match(KEY_LINE)![2]!.trim();
  if (range[1] > range[0] + 1 && first === '') {
    return block.lines
      .slice(range[0] + 1, range[1])
      .map((l) => l.replace(/^\s*-\s*/, ''))
      .map(unquote)
      .filter(Boolean);
  }
  if (first.startsWith('[') && first.endsWith(']')) {
    return first
      .slice(1, -1)
      .split(',')
      .map(unquote)
      .filter(Boolean);
  }
  return unquote(first);
}

/** spec 2.4: one value, a comma list, a flow list or a block list all name members. */
export function readList(text: string, key: string): string[] {
  const value = readKey(text, key);
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : value.split(',');
  return list.map((v) => v.trim().replace(/^#/, '')).filter(Boolean);
}

export function isTrue(value: string | string[] | undefined): boolean {
  return typeof value === 'string' && value.trim().toLowerCase() === 'true';
}

/** A value written bare when YAML reads it back as the same string, else double-quoted. */
function yamlScalar(value: string, inFlow = false): string {
  const plain =
    value !== '' &&
    !(inFlow && /[,[\]{}]/.test(value)) &&
    value.trim() === value &&
    !/^[-?:,[\]{}#&*!|>'"%@`]/.test(value) &&
    !/: |\s#|[\n\r\t]/.test(value) &&
    !value.endsWith(':') &&
    !/^(true|false|yes|no|on|off|null|~)$/i.test(value) &&
    !/^[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(value) &&
    !/^\d{4}-\d{2}-\d{2}/.test(value);
  return plain ? value : JSON.stringify(value);
}

/** Sets `key: value` (a list is written as a flow list), adding the block when absent. */
export function setKey(text: string, key: string, value: string | boolean | string[]): string {
  const rendered = Array.isArray(value)
    ? `[${value.map((v) => yamlScalar(v, true)).join(', ')}]`
    : typeof value === 'boolean'
      ? String(value)
      : yamlScalar(value);
  const line = `${key}: ${rendered}`;
  const block = split(text);
  if (!block) {
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    return `---${eol}${line}${eol}---${eol}${text}`;
  }
  const lines = [...block.lines];
  const range = findKey(lines, key);
  if (range) lines.splice(range[0], range[1] - range[0], line);
  else lines.push(line);
  return ['---', ...lines, '---'].join(block.eol) + block.eol + block.body;
}

/** Removes a key and its continuation lines; the text is unchanged when absent. */
export function removeKey(text: string, key: string): string {
  const block = split(text);
  if (!block) return text;
  const range = findKey(block.lines, key);
  if (!range) return text;
  const lines = [...block.lines];
  lines.splice(range[0], range[1] - range[0]);
  return ['---', ...lines, '---'].join(block.eol) + block.eol + block.body;
}
