// The managed .gitignore rules (spec 2.3, 3.5): `.trash/`, `.obsidian/workspace*.json`
// and, when the data directory lies inside the vault, a rule for it. Existing rules
// are kept; missing ones are appended.
import path from 'node:path';
import { writeFileAtomic } from '../../shared/atomic-write.ts';
import { readRegularFile } from '../../shared/vault-read.ts';

/** A literal vault-relative folder as a .gitignore pattern anchored at the root. */
export function ignoreRuleFor(relDir: string): string {
  const escaped = relDir
    .split('/')
    .map((part) => part.replace(/[\\*?[\]]/g, '\\$&').replace(/^([#!])/, '\\$1').replace(/ $/, '\\ '))
    .join('/');
  return `/${escaped}/`;
}

/** A .gitignore is a few lines; one bigger than this is no .gitignore the server extends. */
const MAX_GITIGNORE_BYTES = 4 * 1024 * 1024;

export function managedRules(dataDirRel: string | null): string[] {
  const rules = ['.trash/', '.obsidian/workspace*.json'];
  if (dataDirRel) rules.push(ignoreRuleFor(dataDirRel));
  return rules;
}

/** Creates or extends the vault's .gitignore; returns the rules it added. */
export async function ensureGitignore(vaultDir: string, dataDirRel: string | null): Promise<string[]> {
  const file = path.join(vaultDir, '.gitignore');
  // A pipe in its place is refused at once, never waited on.
  const read = await readRegularFile(file, MAX_GITIGNORE_BYTES);
  const text = read?.data.toString('utf8') ?? '';
  const mode = read ? read.stats.mode & 0o777 : 0o644;
  const present = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = managedRules(dataDirRel).filter((rule) => {
    // `.trash` and `/.trash/` say the same as `.trash/`.
    const bare = rule.replace(/^\/|\/$/g, '');
    return ![rule, bare, `/${bare}`, `/${bare}/`, `${bare}/`].some((form) => present.has(form));
  });
  if (missing.length === 0) return [];
  const prefix = text === '' || text.endsWith('\n') ? text : text + '\n';
  await writeFileAtomic(file, `${prefix}${missing.join('\n')}\n`, { mode });
  return missing;
}
