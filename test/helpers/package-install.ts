// What the package test (test/integration/package.test.ts) packs from and installs with.
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { git } from './git-remotes.ts';
import { PROJECT_DIR } from './server.ts';

/**
 * The clone's tracked files, copied as a clean clone has them, with its node_modules linked:
 * `npm pack` runs there. Its prepack deletes and remakes dist/ and admin/ui/dist, which the
 * other test files, running meanwhile, start the server from.
 */
export async function cleanCopy(root: string): Promise<string> {
  const copy = path.join(root, 'clone');
  for (const file of git(PROJECT_DIR, 'ls-files', '-z').split('\0').filter(Boolean)) {
    const from = path.join(PROJECT_DIR, file);
    // A file deleted but not yet committed is not in the copy either.
    if (!existsSync(from)) continue;
    await fs.mkdir(path.dirname(path.join(copy, file)), { recursive: true });
    await fs.copyFile(from, path.join(copy, file));
  }
  await fs.symlink(path.join(PROJECT_DIR, 'node_modules'), path.join(copy, 'node_modules'));
  return copy;
}

/**
 * better-sqlite3's install script takes a prebuilt binary when it finds one, as a user's
 * install downloads it; this machine has none to download, and compiling took two of the
 * package test's three minutes. So the clone's compiled one is packed as prebuild-install
 * names a prebuilt (glibc Linux), with the setting that has the script find it
 * (local-prebuilds). The script still runs; without the file it compiles.
 */
export async function localPrebuild(root: string): Promise<Record<string, string>> {
  const dir = path.join(root, 'prebuilds');
  const module = path.join(PROJECT_DIR, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(await fs.readFile(path.join(module, 'package.json'), 'utf8')) as { version: string };
  await fs.mkdir(dir);
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', path.join(dir, file), '-C', module, 'build/Release/better_sqlite3.node']);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}
