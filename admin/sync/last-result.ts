// The last sync result survives a restart (CONTRACT §5): SERVICE_DATA/sync-last.json.
import { readJson, writeJsonAtomic } from '../../shared/atomic-write.ts';
import { log, scrub } from '../../shared/log.ts';
import { dataPath, DATA_FILES, type DataPath } from '../../shared/data-path.ts';

export type SyncOutcome = 'committed' | 'pushed' | 'nothing' | 'busy' | 'diverged' | 'failed';

/**
 * One sentence of a result as a stable key and its figures (a host, a count, git's own line):
 * the app says it in the owner's language; `message` is the same in English, for the log and API users.
 */
export interface SyncWords {
  key: string;
  [figure: string]: string | number;
}

export interface LastResult {
  /** ISO time the pass ended. */
  at: string;
  ok: boolean;
  outcome: SyncOutcome;
  /** A sentence for the panel. */
  message: string;
  /** The message's sentences, each a key and its figures. */
  words?: SyncWords[];
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
    // A file written before the words were kept (or edited by hand) keeps its English sentence.
    if (!Array.isArray(value.words) || !value.words.every((w) => w && typeof w === 'object' && typeof w.key === 'string')) delete value.words;
    return value;
  } catch (err) {
    log.warnOnce('sync-last', `sync-last.json is unreadable; starting without a last result: ${(err as Error).message}`);
    return null;
  }
}

export async function writeLastResult(dataDir: string, result: LastResult): Promise<void> {
  const clean: LastResult = { ...result, message: scrub(result.message) };
  if (result.words) clean.words = result.words.map((w) => Object.fromEntries(Object.entries(w).map(([k, v]) => [k, typeof v === 'string' ? scrub(v) : v])) as SyncWords);
  if (result.error !== undefined) clean.error = scrub(result.error);
  await writeJsonAtomic(lastResultFile(dataDir), clean);
}
