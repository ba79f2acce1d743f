// The collections the vault declares (spec 2.8, D.5), from GET /api/collections,
// and which of them a note belongs to: through its tags (or `folders:` slugs), or
// through the collection's folder (then the membership is fixed).
import { api } from '../api.ts';
import { collectionSlug } from '../../../../shared/note/fields.ts';
import { isInFolder, sameName } from '../../../../shared/vault-names.ts';
import type { DeclaredCollection } from '../types.ts';
import { readList } from './frontmatter.ts';

export type Collection = DeclaredCollection;

export async function declaredCollections(): Promise<Collection[]> {
  return (await api.collections()).collections;
}

export function membershipOf(path: string, content: string, collections: Collection[]) {
  const tags = new Set([...readList(content, 'tags'), ...readList(content, 'tag')].map(sameName));
  const slugs = new Set([...readList(content, 'folders'), ...readList(content, 'folder')].map(collectionSlug));
  return collections.map((c) => {
    const viaFolder = isInFolder(path, c.folder);
    const viaTag = tags.has(c.tag.toLowerCase()) || slugs.has(c.slug);
    return { collection: c, member: viaFolder || viaTag, viaFolder };
  });
}
