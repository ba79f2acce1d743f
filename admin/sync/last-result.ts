// The last sync result survives a restart (CONTRACT §5): SERVICE_DATA/sync-last.json.
import { readJson, writeJsonAtomic } from '../../shared/atomic-write.ts';
import { log, scrub } from '../../shared/log.ts';
import { dataPath, DATA_FILES, type DataPath } from '../../shared/data-path.ts';

export type SyncOutcome = 'committed' | 'pushed' | 'nothing' | 'busy' | 'diverged' | 'failed';

export interface LastResult {
  /** ISO time the pass ended. */
  at: string;
  ok: boolean;
  outcome: SyncOutcome;
  /** A sentence for the panel. */
  message: string;
  /** git's own error line, scrubbed of the token and URL user info. */
  error?: string;
}

export function lastResultFile(dataDir: string): DataPath {
  return dataPath(dataDir, DATA_FILES.syncLast);
}

export async function readLastResult(dataDir: string): Promise<LastResult | null> {
  try {
    const value = await readJson<LastResult | null>(lastResultFile(dataDir), null);
    if (!value || typeof value.at !== 'string' || typeof value.message !== 'string') return null;
    return value;
  } catch (err) {
    log.warnOnce('sync-last', `sync-last.json is unreadable; starting without a last result: ${(err as Error).message}`);
    return null;
  }
}

export async function writeLastResult(dataDir: string, result: LastResult): Promise<void> {
  const clean: LastResult = { ...result, message: scrub(result.message) };
  if (result.error !== undefined) clean.error = scrub(result.error);
  await writeJsonAtomic(lastResultFile(dataDir), clean);
}
