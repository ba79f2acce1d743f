// docs/guide/configuration.md has one table of every variable and flag: it must say what
// shared/config.ts and the command line's switches say, row for row, and nothing else.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../scripts/cli/args.ts';
import { CONFIG_OPTIONS } from '../../shared/config.ts';

const DOC = path.resolve(import.meta.dirname, '../../docs/guide/configuration.md');

// Rows for what config.ts does not read, each with why it is in the table.
const READ_ELSEWHERE: Record<string, string> = {
  MALLOC_ARENA_MAX: "glibc's, set by `npm start` and by the server for its build process (shared/malloc-env.ts)",
};
// A setting the table may name before config.ts has it; once config.ts knows it, every check below holds it like the others.
const ANNOUNCED = new Set<string>();

interface Row {
  variable: string;
  flag: string;
  commands: string[];
  fallback: string;
}

/** The rows of the table under "Every variable and flag". */
function tableRows(): Row[] {
  const section = readFileSync(DOC, 'utf8').split(/^## /m).find((s) => s.startsWith('Every variable and flag'));
  if (!section) throw new Error('docs/guide/configuration.md has no "Every variable and flag" section');
  const lines = section.split('\n').filter((l) => l.startsWith('|'));
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
  const header = cells(lines[0]!);
  expect(header).toEqual(['Variable', 'Flag', 'Commands', 'Default', 'What it does']);
  const code = (c: string) => c.replace(/^`([^`]*)`.*$/, '$1');
  return lines.slice(2).map((line) => {
    const [variable, flag, commands, fallback] = cells(line);
    return {
      variable: code(variable!),
      flag: code(flag!),
      commands: commands!.split(',').map((c) => c.trim()).filter(Boolean),
      fallback: fallback!.startsWith('`') ? code(fallback!) : fallback!,
    };
  });
}

describe('the configuration table says what shared/config.ts and the command line say', () => {
  const rows = tableRows();
  const byVariable = new Map(rows.filter((r) => r.variable).map((r) => [r.variable, r]));

  it('names each variable once', () => {
    const names = rows.map((r) => r.variable).filter(Boolean);
    expect(names.length).toBe(new Set(names).size);
  });

  it('has a row for every setting of config.ts, with its flag, commands and default', () => {
    for (const option of CONFIG_OPTIONS) {
      const row = byVariable.get(option.env);
      expect(row, `no row for ${option.env}`).toBeDefined();
      expect(row!.flag, option.env).toBe(option.flag ? `--${option.flag} ${option.value}` : '');
      expect(row!.commands, option.env).toEqual([...option.commands]);
      expect(row!.fallback, option.env).toBe(option.fallback ?? '');
    }
  });

  it("has a row for every command's own switch", () => {
    for (const [command, spec] of Object.entries(COMMANDS)) {
      for (const name of Object.keys(spec.switches)) {
        const row = rows.find((r) => r.flag === `--${name}`);
        expect(row, `no row for --${name}`).toBeDefined();
        expect(row!.variable).toBe('');
        expect(row!.commands).toContain(command);
      }
    }
  });

  it('names nothing that neither config.ts nor the command line knows, but the rows named here', () => {
    const known = new Set(CONFIG_OPTIONS.map((o) => o.env));
    const switches = new Set(Object.values(COMMANDS).flatMap((c) => Object.keys(c.switches).map((n) => `--${n}`)));
    const unknown = rows.filter((r) => (r.variable ? !known.has(r.variable) && !(r.variable in READ_ELSEWHERE) && !ANNOUNCED.has(r.variable) : !switches.has(r.flag)));
    expect(unknown).toEqual([]);
    // A row kept for what config.ts does not read must not shadow a setting it does read.
    expect(Object.keys(READ_ELSEWHERE).filter((v) => known.has(v))).toEqual([]);
  });
});
