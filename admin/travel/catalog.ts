// Catalog font families (spec 2.2, Appendix C): never copied through the vault, but
// re-downloaded on the receiving machine into SERVICE_DATA/fonts/catalog/ at boot and
// whenever a newer settings.json or designs.json arrives.
//
// Which families: every name in `typography.catalogFamilies` of settings.json, and in
// any `catalogFamilies` list inside designs.json.
// Where from (FONT_CATALOG_URL = base):
//   GET {base}/{slug}/manifest.json  → { "files": ["regular.woff2", ...] }
//   GET {base}/{slug}/{file}         → the font bytes
// where slug is the family name in lower case with runs of other characters as `-`.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../shared/atomic-write.ts';
import { scrub } from '../../shared/log.ts';
import type { CatalogFamilyReport } from './report-types.ts';

const MAX_FAMILIES = 24;
const MAX_FILES_PER_FAMILY = 32;
const MAX_FONT_BYTES = 10 * 1024 * 1024;
const MAX_MANIFEST_BYTES = 64 * 1024;
const TIMEOUT_MS = 20_000;
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,100}\.(woff2|woff|ttf|otf)$/;
const FAMILY_NAME = /^[\p{L}\p{N}][\p{L}\p{N} _'.-]{0,99}$/u;

export function familySlug(family: string): string {
  return family
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|(?<!-)-+$/g, '');
}

function collect(value: unknown, into: Set<string>, depth: number): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) collect(v, into, depth + 1);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    if (key === 'catalogFamilies' && Array.isArray(v)) {
      for (const name of v) if (typeof name === 'string' && FAMILY_NAME.test(name.trim())) into.add(name.trim());
    } else collect(v, into, depth + 1);
  }
}

/** The catalog families settings.json and designs.json name, deduplicated by slug. */
export function catalogFamilies(settings: unknown, designs: unknown): string[] {
  const names = new Set<string>();
  const typography = (settings as { typography?: unknown } | null)?.typography;
  collect(typography ? { typography } : null, names, 0);
  collect(designs, names, 0);
  const bySlug = new Map<string, string>();
  for (const name of names) if (!bySlug.has(familySlug(name)) && familySlug(name)) bySlug.set(familySlug(name), name);
  return [...bySlug.values()].slice(0, MAX_FAMILIES);
}

async function fetchBytes(url: string, limit: number): Promise<Buffer> {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
  if (!res.ok) throw new Error(`the catalog answered ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > limit) throw new Error('the file is larger than the catalog limit');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > limit) throw new Error('the file is larger than the catalog limit');
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

async function cachedFiles(dir: string): Promise<number | null> {
  try {
    const manifest = JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8')) as { files?: unknown };
    if (!Array.isArray(manifest.files)) return null;
    for (const f of manifest.files) {
      if (typeof f !== 'string' || !FILE_NAME.test(f)) return null;
      await fs.access(path.join(dir, f));
    }
    return manifest.files.length;
  } catch {
    return null;
  }
}

/** Downloads each family not yet complete in the cache; the manifest is written last. */
export async function downloadCatalog(dataDir: string, baseUrl: string, families: string[]): Promise<CatalogFamilyReport[]> {
  const root = path.join(dataDir, 'fonts', 'catalog');
  const reports: CatalogFamilyReport[] = [];
  for (const family of families) {
    const slug = familySlug(family);
    const dir = path.join(root, slug);
    const cached = await cachedFiles(dir);
    if (cached !== null) {
      reports.push({ family, state: 'cached', files: cached });
      continue;
    }
    try {
      const base = `${baseUrl.replace(/(?<!\/)\/+$/, '')}/${encodeURIComponent(slug)}`;
      const manifestBytes = await fetchBytes(`${base}/manifest.json`, MAX_MANIFEST_BYTES);
      let manifest: { files?: unknown };
      try {
        manifest = JSON.parse(manifestBytes.toString('utf8')) as { files?: unknown };
      } catch {
        throw new Error('the catalog manifest is not valid JSON');
      }
      const files = Array.isArray(manifest.files) ? manifest.files : null;
      if (!files || files.length === 0 || files.length > MAX_FILES_PER_FAMILY || !files.every((f) => typeof f === 'string' && FILE_NAME.test(f))) {
        throw new Error('the catalog manifest does not list font files');
      }
      for (const file of files as string[]) {
        const bytes = await fetchBytes(`${base}/${encodeURIComponent(file)}`, MAX_FONT_BYTES);
        await writeFileAtomic(path.join(dir, file), bytes, { mode: 0o600, mkdir: true });
      }
      await writeFileAtomic(path.join(dir, 'manifest.json'), JSON.stringify({ family, files }, null, 2) + '\n', { mode: 0o600 });
      reports.push({ family, state: 'downloaded', files: files.length });
    } catch (err) {
      const message = (err as Error).name === 'TimeoutError' ? 'the catalog did not answer in time' : (err as Error).message;
      reports.push({ family, state: 'failed', error: scrub(message) });
    }
  }
  return reports;
}
