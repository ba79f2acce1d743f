// A warning in the interface's language: its sentence is chosen by `kind` (and `variant`) and
// filled from its fields; a kind this admin does not know keeps the server's English sentence.
import { en, t, type StringKey } from '../i18n.ts';
import { isolated, isolatedPath } from '../isolate.ts';
import type { HealthWarning } from '../types.ts';

export function warningSentence(w: HealthWarning): string {
  if (w.more !== undefined) return t('warn_more', { count: w.more });
  const key = `warn_${w.kind}${w.variant ? `_${w.variant}` : ''}`;
  if (!Object.hasOwn(en, key)) return w.message;
  // A path or address reads left to right whatever its letters; a link and a value as written.
  const vars: Record<string, string | number> = { path: isolatedPath(w.path), link: isolated(w.link), target: isolatedPath(w.target), address: isolatedPath(w.address), value: isolated(w.value) };
  if (w.count !== undefined) vars.count = w.count;
  if (w.max !== undefined) vars.max = w.max;
  return t(key as StringKey, vars);
}
