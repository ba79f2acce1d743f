// The home note shown above the posts reads in its own language's direction, told by the one
// owner of direction (shared/note/language.ts directionOf), as an article is: a Persian or
// Hebrew home note was laid out left to right, only `ar` counted as right to left.
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { buildRecord } from '../../shared/model/note-record.ts';
import { FRONT_PAGE } from '../../shared/model/addresses.ts';
import { defaultSettings } from '../../shared/settings.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { AttachmentIndex } from '../../site/read/attachments.ts';
import { planVault } from '../../site/plan/plan-vault.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

async function introOf(lang: string): Promise<{ lang: string; dir: string } | null> {
  const vault = await tempDir('vs-intro-');
  const config = loadConfig({ VAULT: vault, SERVICE_DATA: await tempDir('vs-intro-data-'), PUBLIC_LAYOUT: 'blog', HOME_NOTE: 'Home' }, []);
  const record = (path: string, text: string) => buildRecord({ path: path as VaultPath, text, createdMs: Date.UTC(2026, 0, 1), fileMs: 0 });
  const records = [record('Home.md', `---\npublish: true\nlang: ${lang}\n---\nWelcome.\n`), record('Post.md', '---\npublish: true\n---\nA post.\n')];
  const plan = planVault({ records, attachments: new AttachmentIndex(vault), settings: defaultSettings(), config, base: '', assets: [], now: new Date(Date.UTC(2026, 5, 1)) });
  const view = plan.pages.get(FRONT_PAGE)!.view() as { intro: { lang: string; dir: string } | null };
  return view.intro && { lang: view.intro.lang, dir: view.intro.dir };
}

describe('the home note above the posts', () => {
  it('reads right to left in any right-to-left language, left to right otherwise', async () => {
    expect(await introOf('fa')).toEqual({ lang: 'fa', dir: 'rtl' });
    expect(await introOf('he')).toEqual({ lang: 'he', dir: 'rtl' });
    expect(await introOf('ar')).toEqual({ lang: 'ar', dir: 'rtl' });
    expect(await introOf('en')).toEqual({ lang: 'en', dir: 'ltr' });
  });
});
