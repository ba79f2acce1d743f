// The site model of a small vault, derived as a build derives it (default settings, no data
// directory, no git): what a model-level test reads its posts and warnings from.
import { modelSettings } from '../../shared/model/model-settings.ts';
import { deriveSiteModel, type SiteModel } from '../../shared/model/site-model.ts';
import { VaultStore } from '../../shared/model/vault-store.ts';
import { defaultSettings, siteSettingsOf } from '../../shared/settings.ts';
import { tempDir, writeFiles } from './tmp.ts';

export async function modelOfFiles(prefix: string, files: Record<string, string>): Promise<SiteModel> {
  const vault = await tempDir(prefix);
  await writeFiles(vault, files);
  const env = { siteName: null, siteTagline: null, homeNote: null, siteFooter: null, siteLang: null, publicLayout: null };
  const store = new VaultStore({ vaultDir: vault, dataDir: null, useGit: false });
  await store.loadAll();
  return deriveSiteModel(store.records.values(), modelSettings(siteSettingsOf(defaultSettings(), env), { excludeTags: [] }));
}
