// Saving settings: a validated patch is deep-merged into settings.json and written
// by temp-file + rename. One lock per file serialises every writer in this process
// (PATCH, the vault mirror adopting a newer copy).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write.ts';
import { KeyedMutex } from '../keyed-mutex.ts';
import { log } from '../log.ts';
import { isPlainObject } from './validate.ts';
import type { DataPath } from '../data-path.ts';

const locks = new KeyedMutex();

/** Runs `task` while no other settings write of this process touches `file`. */
export function withSettingsLock<T>(file: DataPath, task: () => Promise<T>): Promise<T> {
  return locks.run(path.resolve(file), task);
}

/** The object stored in settings.json as it is (sparse: unset keys are absent). */
export async function readStoredSettings(file: DataPath): Promise<Record<string, unknown>> {
  let raw: string;
  try {
    raw = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  try {
    const value: unknown = JSON.parse(raw);
    if (isPlainObject(value)) return value;
  } catch {
    /* reported below */
  }
  log.warn('settings.json is not a JSON object; saving starts from the defaults');
  return {};
}

/**
 * Deep merge of a validated patch: groups merge key by key, a null value removes the
 * saved value (the default, or the environment, applies again).
 */
export function mergeSettings(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (isPlainObject(value)) {
      const merged = mergeSettings(isPlainObject(stored[key]) ? stored[key] : {}, value);
      out[key] = merged;
    } else if (value === null) {
      delete out[key];
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * Merges `patch` into settings.json and writes it; unchanged content is not rewritten.
 * `beforeWrite` may complete the merged object, under the same lock.
 */
export async function saveSettingsPatch(
  file: DataPath,
  patch: Record<string, unknown>,
  beforeWrite?: (stored: Record<string, unknown>, merged: Record<string, unknown>) => Promise<void>,
): Promise<Record<string, unknown>> {
  return withSettingsLock(file, async () => {
    const stored = await readStoredSettings(file);
    const merged = mergeSettings(stored, patch);
    await beforeWrite?.(stored, merged);
    // spec 2.2: settings.json never holds the git token, whatever an old file carried.
    if (isPlainObject(merged.sync)) delete merged.sync.token;
    if (JSON.stringify(merged) !== JSON.stringify(stored)) {
      await writeFileAtomic(file, JSON.stringify(merged, null, 2) + '\n', { mode: 0o600, mkdir: true });
    }
    return merged;
  });
}

