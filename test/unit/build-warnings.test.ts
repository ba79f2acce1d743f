// The build's warnings: the model names each note that links to a note that
// does not exist or is not published, whose frontmatter is malformed, or whose address is
// taken or reserved; private notes' links are nobody's business; the server's log writes
// each warning once.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatWarning, sameWarnings, WARNING_FIELDS, WarningLog, type BuildWarning } from '../../shared/model/build-warnings.ts';
import { modelSettings } from '../../shared/model/model-settings.ts';
import { deriveSiteModel } from '../../shared/model/site-model.ts';
import { VaultStore } from '../../shared/model/vault-store.ts';
import { defaultSettings, siteSettingsOf } from '../../shared/settings.ts';

const VAULT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/warnings/vault');

let store: VaultStore;
const env = { siteName: null, siteTagline: null, homeNote: null, siteFooter: null, siteLang: null, publicLayout: null };
const settings = modelSettings(siteSettingsOf(defaultSettings(), env), { excludeTags: [] });
const warningsNow = () => deriveSiteModel(store.records.values(), settings).warnings;

beforeAll(async () => {
  store = new VaultStore({ vaultDir: VAULT, dataDir: null, useGit: false });
  await store.loadAll();
});

describe('the model names what is wrong, note by note', () => {
  it('lists broken and private links, malformed frontmatter, taken and reserved addresses', () => {
    const byKind = (kind: BuildWarning['kind']) => warningsNow().filter((w) => w.kind === kind);
    expect(byKind('missing-link')).toEqual([{ note: 'Posts/Broken link.md', kind: 'missing-link', message: 'links to "Nowhere at all", which does not exist', link: 'Nowhere at all' }]);
    expect(byKind('unpublished-link').map((w) => w.note)).toContain('Posts/Private link.md');
    expect(byKind('unpublished-link')[0]!.message).toBe('links to "Private thoughts" (Private thoughts.md), which is not published');
    expect(byKind('unpublished-embed')).toEqual([
      { note: 'Posts/Embeds private.md', kind: 'unpublished-embed', message: 'embeds ![[Private thoughts]], which is not published: nothing is shown', target: 'Private thoughts.md', link: 'Private thoughts' },
    ]);
    expect(byKind('frontmatter')).toEqual([expect.objectContaining({ note: 'Posts/Bad frontmatter.md', message: expect.stringMatching(/^the frontmatter block is malformed and was ignored \(.+\)$/) })]);
    const duplicate = byKind('duplicate-address');
    expect(duplicate).toHaveLength(1);
    expect(duplicate[0]!.message).toMatch(/^is not published: Posts\/Same[ -]name\.md also claims the address \/Posts\/Same-name, and the older note keeps it$/);
    expect(byKind('reserved-address')).toEqual([{ note: 'api/Reserved.md', kind: 'reserved-address', message: 'is not published: its address /api/Reserved belongs to the site', address: '/api/Reserved' }]);
    // An embed of a note a visitor cannot see shows nothing, and says so here.
    expect(byKind('unpublished-embed')).toEqual([
      { note: 'Posts/Embeds private.md', kind: 'unpublished-embed', message: 'embeds ![[Private thoughts]], which is not published: nothing is shown', target: 'Private thoughts.md', link: 'Private thoughts' },
    ]);
  });

  it('says nothing about private notes’ links, attachment links or links that work', () => {
    const notes = warningsNow().map((w) => w.note);
    expect(notes).not.toContain('Private thoughts.md');
    expect(notes).not.toContain('Drafts/Draft.md');
    expect(notes).not.toContain('Posts/Fine.md');
    expect(notes).not.toContain('Home.md');
  });

  it('is sorted by note, and the same on every derivation', () => {
    const list = warningsNow();
    expect(list.map((w) => w.note)).toEqual([...list.map((w) => w.note)].sort());
    expect(warningsNow()).toEqual(list);
  });
});

describe('the server’s warning log', () => {
  it('writes each warning once, not after every rebuild, and again when it comes back', () => {
    const lines: string[] = [];
    const log = new WarningLog((line) => lines.push(line));
    const a: BuildWarning = { note: 'A.md', kind: 'missing-link', message: 'links to "X", which does not exist' };
    const b: BuildWarning = { note: 'B.md', kind: 'frontmatter', message: 'the frontmatter block is malformed and was ignored (bad)' };
    log.report([a]);
    log.report([a]);
    log.report([a, b]);
    expect(lines).toEqual([formatWarning(a), formatWarning(b)]);
    log.report([b]);
    log.report([a, b]);
    expect(lines).toEqual([formatWarning(a), formatWarning(b), formatWarning(a)]);
  });
});

describe('two lists of warnings compared (the builder sends the server a list only when it changed)', () => {
  const base: BuildWarning = { note: 'A.md', kind: 'missing-link', message: 'links to "B", which is not in the vault', target: 'B.md', link: 'B' };

  it('the same warnings, as new objects, are the same list; an order, a count or any one field changed is another', () => {
    expect(sameWarnings([base, { ...base, note: 'C.md' }], [{ ...base }, { ...base, note: 'C.md' }])).toBe(true);
    expect(sameWarnings([], [])).toBe(true);
    expect(sameWarnings([base], [base, base])).toBe(false);
    expect(sameWarnings([base, { ...base, note: 'C.md' }], [{ ...base, note: 'C.md' }, base])).toBe(false);
    expect(sameWarnings([base], [{ ...base, kind: 'unpublished-link' }])).toBe(false);
    expect(sameWarnings([base], [{ ...base, message: 'links to "B2"' }])).toBe(false);
    // Fields an interface words a warning by, though its printed line stays the same.
    for (const field of WARNING_FIELDS) expect(sameWarnings([base], [{ ...base, [field]: field === 'more' || field === 'count' || field === 'max' ? 7 : 'other' }]), field).toBe(false);
  });
});
