// A pass is claimed before its first await: a start pass shows as running from the
// server's first answer, so a Snapshot now right after start is told a pass runs, and
// a caller waiting for "not running" never sees the gap before the pass begins.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../shared/settings.ts';
import { SyncScheduler } from '../../admin/sync/scheduler.ts';
import { SyncService } from '../../admin/sync/service.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

async function service(): Promise<{ service: SyncService; scheduler: SyncScheduler; vault: string }> {
  const base = await tempDir('vs-sync-claim-');
  const vault = path.join(base, 'vault');
  const data = path.join(base, 'data');
  await fs.mkdir(vault);
  await fs.mkdir(data);
  execFileSync('git', ['init', '-q', '-b', 'main', vault]);
  await fs.writeFile(path.join(vault, 'A.md'), 'one\n');
  const settings = { sync: { enabled: true, branch: 'main', intervalMinutes: 0 } } as unknown as Settings;
  const readSettings = async () => settings;
  const svc = new SyncService({ config: { vaultDir: vault, dataDir: data, gitSshCommand: null }, readSettings, dataDirRel: async () => null });
  return { service: svc, scheduler: new SyncScheduler({ service: svc, readSettings, vaultDir: vault, dataDir: data }), vault };
}

describe('a sync pass', () => {
  it('is running once the server\'s start is over, before it answers anyone', async () => {
    const { service: svc, scheduler } = await service();
    await scheduler.start();
    expect(svc.running).toBe(true);
    await expect(svc.snapshot()).rejects.toMatchObject({ code: 'sync_running' });
    scheduler.stop();
    await svc.close();
    expect(svc.running).toBe(false);
  });

  it('is running from the moment Sync now is asked, before the settings are read', async () => {
    const { service: svc } = await service();
    const first = svc.sync('manual');
    expect(svc.running).toBe(true);
    await expect(svc.snapshot()).rejects.toMatchObject({ code: 'sync_running' });
    expect((await first).outcome).toBe('committed');
    expect(svc.running).toBe(false);
  });
});
