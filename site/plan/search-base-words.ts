// The words a base still holds for a note edited since it was made, taken out of the shards
// that hold them. After an edit the delta serves the note's new text and the base's id for it
// is gone (no query finds it there), but the shards still list the old text's words: a word
// the owner deleted stays downloadable. Rewriting the shards of those words alone is a few
// milliseconds; a whole new base for it, every searchable note indexed again, took seconds of
// the builder after every save on a realistic vault.
import { safeJson, shardIndex, shardKey, type ShardFile } from '../../shared/search/index-format.ts';
import { indexFile, type SearchBase } from './search-base.ts';

/** A field's postings (`[id, frequency, id gap, frequency, …]`) without `ids`. */
function withoutIds(flat: number[], ids: ReadonlySet<number>): number[] {
  const out: number[] = [];
  let id = 0;
  let last = 0;
  for (let i = 0; i < flat.length; i += 2) {
    id += flat[i]!;
    if (ids.has(id)) continue;
    out.push(id - last, flat[i + 1]!);
    last = id;
  }
  return out;
}

/**
 * The shards with each base id's `removed` terms taken out of that id's postings (a term no
 * note holds any more goes whole). Only the shards holding such a term are new files.
 */
export function shardsWithout(shards: SearchBase['shards'], removed: ReadonlyMap<number, ReadonlySet<string>>): SearchBase['shards'] {
  const keys = shards.map((s): [string, string] => [s.key, '']);
  const byShard = new Map<number, Map<string, Set<number>>>();
  for (const [id, terms] of removed) {
    for (const term of terms) {
      const at = shardIndex(keys, shardKey(term));
      if (at < 0) continue;
      let inShard = byShard.get(at);
      if (!inShard) byShard.set(at, (inShard = new Map()));
      let ids = inShard.get(term);
      if (!ids) inShard.set(term, (ids = new Set()));
      ids.add(id);
    }
  }
  return shards.map((shard, at) => {
    const terms = byShard.get(at);
    if (!terms) return shard;
    const kept: ShardFile = [];
    let changed = false;
    for (const entry of JSON.parse(shard.file.content) as ShardFile) {
      const ids = terms.get(entry[0]);
      if (!ids) {
        kept.push(entry);
        continue;
      }
      changed = true;
      const out: ShardFile[number] = [entry[0]];
      for (let i = 1; i < entry.length; i += 2) {
        const flat = withoutIds(entry[i + 1] as number[], ids);
        if (flat.length > 0) out.push(entry[i] as number, flat);
      }
      if (out.length > 1) kept.push(out);
    }
    return changed ? { key: shard.key, file: indexFile('shard', safeJson(kept)) } : shard;
  });
}
