// The expression language of Obsidian Bases (filters and formulas share it), parsed by
// hand into a small tree: a vault is hostile input, so nothing here ever reaches `eval`.
// Sizes are bounded (text, tokens, nesting) and every function or method name is checked
// against what the evaluator knows, so an unsupported one is found before any row is read.

export type Expr =
  | { t: 'lit'; value: string | number | boolean | null }
  | { t: 'name'; name: string }
  | { t: 'list'; items: Expr[] }
  | { t: 'member'; object: Expr; name: string }
  | { t: 'index'; object: Expr; index: Expr }
  | { t: 'call'; name: string; args: Expr[] }
  | { t: 'method'; object: Expr; name: string; args: Expr[] }
  | { t: 'unary'; op: '!' | '-'; arg: Expr }
  | { t: 'binary'; op: BinaryOp; left: Expr; right: Expr };

export type BinaryOp = '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';

/** Why an expression cannot be shown: it does not parse, or it names what the site does not support. */
export class BaseExpressionError extends Error {
  constructor(
    readonly kind: 'parse' | 'unsupported',
    message: string,
    /** The function or method named, for an unsupported one. */
    readonly what: string | null = null,
  ) {
    super(message);
  }
}

export const MAX_EXPRESSION_LENGTH = 4_000;
export const MAX_EXPRESSION_DEPTH = 48;
const MAX_TOKENS = 1_000;

/** Global functions the evaluator knows (evaluate.ts). */
export const FUNCTIONS = new Set(['if', 'now', 'today', 'date', 'number', 'string', 'list', 'link', 'min', 'max', 'choice']);
/** Methods of any value the evaluator knows (evaluate.ts): strings, numbers, lists, dates, the file. */
export const METHODS = new Set([
  'contains', 'containsAll', 'containsAny', 'startsWith', 'endsWith', 'isEmpty', 'lower', 'upper', 'title', 'trim', 'replace', 'split', 'slice', 'join', 'reverse', 'sort', 'unique', 'toString', 'isTruthy',
  'toFixed', 'round', 'abs', 'ceil', 'floor',
  'mean', 'median', 'stddev', 'sum', 'min', 'max',
  'format', 'year', 'month', 'day', 'date',
  'hasTag', 'inFolder', 'hasLink', 'hasProperty', 'asLink',
]);

type Token = { kind: 'num'; value: number } | { kind: 'str'; value: string } | { kind: 'id'; value: string } | { kind: 'op'; value: string };

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '+', '-', '*', '/', '%', '!', '(', ')', '[', ']', ',', '.'];

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    if (tokens.length > MAX_TOKENS) throw new BaseExpressionError('parse', `an expression of more than ${MAX_TOKENS} parts`);
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i, i + 64))!;
      tokens.push({ kind: 'num', value: Number(m[0]) });
      i += m[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      let value = '';
      let j = i + 1;
      for (; j < src.length && src[j] !== c; j++) {
        if (src[j] === '\\' && j + 1 < src.length) {
          j++;
          const e = src[j]!;
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e;
        } else value += src[j];
      }
      if (j >= src.length) throw new BaseExpressionError('parse', 'a string without its closing quote');
      tokens.push({ kind: 'str', value });
      i = j + 1;
      continue;
    }
    const id = /^[\p{L}_$][\p{L}\p{N}_$]*/u.exec(src.slice(i, i + 256));
    if (id) {
      // A name with a space or hyphen is written `note["my name"]`, as in Obsidian.
      tokens.push({ kind: 'id', value: id[0] });
      i += id[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new BaseExpressionError('parse', `an unexpected character “${c}”`);
    tokens.push({ kind: 'op', value: op });
    i += op.length;
  }
  return tokens;
}

const PRECEDENCE: Record<string, number> = { '||': 1, '&&': 2, '==': 3, '!=': 3, '<': 4, '<=': 4, '>': 4, '>=': 4, '+': 5, '-': 5, '*': 6, '/': 6, '%': 6 };

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  parseAll(): Expr {
    const expr = this.expression(0);
    if (this.pos < this.tokens.length) throw new BaseExpressionError('parse', `unexpected “${describe(this.tokens[this.pos]!)}”`);
    return expr;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private isOp(value: string): boolean {
    const t = this.peek();
    return t?.kind === 'op' && t.value === value;
  }

  private expect(value: string): void {
    if (!this.isOp(value)) throw new BaseExpressionError('parse', `“${value}” expected`);
    this.pos++;
  }

  private enter(): void {
    if (++this.depth > MAX_EXPRESSION_DEPTH) throw new BaseExpressionError('parse', `an expression nested more than ${MAX_EXPRESSION_DEPTH} deep`);
  }

  private expression(minPrec: number): Expr {
    this.enter();
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      const prec = t?.kind === 'op' ? PRECEDENCE[t.value] : undefined;
      if (prec === undefined || prec < minPrec) break;
      this.pos++;
      const right = this.expression(prec + 1);
      left = { t: 'binary', op: (t as { value: BinaryOp }).value, left, right };
    }
    this.depth--;
    return left;
  }

  private unary(): Expr {
    if (this.isOp('!') || this.isOp('-')) {
      const op = (this.tokens[this.pos++] as { value: '!' | '-' }).value;
      this.enter();
      const arg = this.unary();
      this.depth--;
      return { t: 'unary', op, arg };
    }
    return this.postfix(this.primary());
  }

  private args(): Expr[] {
    const args: Expr[] = [];
    this.expect('(');
    if (!this.isOp(')')) {
      do args.push(this.expression(0));
      while (this.isOp(',') && ++this.pos);
    }
    this.expect(')');
    return args;
  }

  private postfix(expr: Expr): Expr {
    for (;;) {
      if (this.isOp('.')) {
        this.pos++;
        const t = this.tokens[this.pos++];
        if (t?.kind !== 'id') throw new BaseExpressionError('parse', 'a name expected after “.”');
        if (this.isOp('(')) {
          if (!METHODS.has(t.value)) throw new BaseExpressionError('unsupported', `the function ${t.value}()`, `${t.value}()`);
          expr = { t: 'method', object: expr, name: t.value, args: this.args() };
        } else expr = { t: 'member', object: expr, name: t.value };
      } else if (this.isOp('[')) {
        this.pos++;
        const index = this.expression(0);
        this.expect(']');
        expr = { t: 'index', object: expr, index };
      } else return expr;
    }
  }

  private primary(): Expr {
    const t = this.tokens[this.pos++];
    if (!t) throw new BaseExpressionError('parse', 'the expression ends too soon');
    if (t.kind === 'num') return { t: 'lit', value: t.value };
    if (t.kind === 'str') return { t: 'lit', value: t.value };
    if (t.kind === 'id') {
      if (t.value === 'true' || t.value === 'false') return { t: 'lit', value: t.value === 'true' };
      if (t.value === 'null') return { t: 'lit', value: null };
      if (this.isOp('(')) {
        if (!FUNCTIONS.has(t.value)) throw new BaseExpressionError('unsupported', `the function ${t.value}()`, `${t.value}()`);
        return { t: 'call', name: t.value, args: this.args() };
      }
      return { t: 'name', name: t.value };
    }
    if (t.value === '(') {
      const inner = this.expression(0);
      this.expect(')');
      return inner;
    }
    if (t.value === '[') {
      const items: Expr[] = [];
      if (!this.isOp(']')) {
        do items.push(this.expression(0));
        while (this.isOp(',') && ++this.pos);
      }
      this.expect(']');
      return { t: 'list', items };
    }
    throw new BaseExpressionError('parse', `unexpected “${t.value}”`);
  }
}

function describe(t: Token): string {
  return t.kind === 'str' ? JSON.stringify(t.value).slice(0, 40) : String(t.value).slice(0, 40);
}

/** One expression of a base, parsed; throws BaseExpressionError. */
export function parseExpression(src: unknown): Expr {
  if (typeof src === 'number' || typeof src === 'boolean') return { t: 'lit', value: src };
  if (typeof src !== 'string') throw new BaseExpressionError('parse', 'an expression that is not text');
  if (src.length > MAX_EXPRESSION_LENGTH) throw new BaseExpressionError('parse', `an expression longer than ${MAX_EXPRESSION_LENGTH} characters`);
  const tokens = tokenize(src);
  if (tokens.length === 0) throw new BaseExpressionError('parse', 'an empty expression');
  return new Parser(tokens).parseAll();
}
