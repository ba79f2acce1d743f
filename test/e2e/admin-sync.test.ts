// Backup & sync in a real browser against the real server and a real git remote on
// loopback (git http-backend behind HTTPS with a token check): refusals shown in
// the form, Initialize repository, the token write-only, Sync now with the status
// bar indicator going gold then plain (spec 3.1), Snapshot now from the palette,
// the busy, failed and diverged reports (spec 2.10, 3.2, 3.4).
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { clearToasts, openAdmin, openFromTree, screenshot, signIn, adminForFile } from '../helpers/browser.ts';
import { bareRepo, git, startHttpsGitServer, type HttpsGitServer } from '../helpers/git-remotes.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const TOKEN = `tok_${randomBytes(16).toString('hex')}`;
const USER = 'alice';

let base: string;
let vault: string;
let data: string;
let remotes: string;
let https: HttpsGitServer;

const panel = (page: Page) => page.getByTestId('sync-panel');
const indicator = (page: Page) => page.getByTestId('sync-indicator');

async function openBackupSection(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await page.locator('.palette input').fill('Backup');
  await page.keyboard.press('Enter');
  await panel(page).waitFor();
}

/** Records every state the indicator takes, including ones shorter than a poll. */
async function recordIndicator(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __states: string[] };
    w.__states = [];
    const read = () => {
      const state = document.querySelector('[data-testid="sync-indicator"]')?.getAttribute('data-state') ?? 'none';
      if (w.__states[w.__states.length - 1] !== state) w.__states.push(state);
    };
    read();
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
  });
  return () => page.evaluate(() => (window as unknown as { __states: string[] }).__states);
}

/** Subjects on the remote's main branch ('' before the first push). */
function remoteLog(): string {
  try {
    return git(path.join(remotes, 'vault.git'), 'log', '--format=%s', 'main');
  } catch {
    return '';
  }
}

const { server, browser, main } = adminForFile({
  prefix: 'vs-e2e-sync-',
  prepare: async (dirs) => {
    ({ base, vault, data } = dirs);
    remotes = path.join(base, 'remotes');
    await bareRepo(path.join(remotes, 'vault.git'));
    await fs.mkdir(path.join(base, 'certs'));
    https = await startHttpsGitServer({ root: remotes, certDir: path.join(base, 'certs'), username: USER, token: TOKEN });
    await writeFiles(vault, { 'Home.md': '# Home\n', 'Posts/First.md': '---\npublish: true\n---\nHello\n' });
    return { env: { GIT_SSL_CAINFO: https.caFile } };
  },
});
afterAll(async () => {
  await https?.close();
});

describe('the remote URL is validated by the server and refusals are shown in the form (spec 2.9)', () => {
  it('the indicator stays hidden while backup is off', async () => {
    await main.page.waitForTimeout(300);
    expect(await indicator(main.page).count()).toBe(0);
  });

  for (const hostile of ['https://alice:hunter2@127.0.0.1/vault.git', 'ext::sh -c touch% /tmp/pwned', 'https://127.0.0.1/vault.git;rm -rf ~']) {
    it(`refuses ${hostile} with the reason, and nothing is saved`, async () => {
      const { page } = main;
      if (!(await panel(page).isVisible())) await openBackupSection(page);
      const url = panel(page).locator('input[name="remoteUrl"]');
      await url.fill(hostile);
      await panel(page).getByRole('button', { name: 'Save', exact: true }).click();
      const error = page.getByTestId('remote-error');
      await error.waitFor();
      expect((await error.textContent())!.length).toBeGreaterThan(10);
      await expect(url.getAttribute('aria-invalid')).resolves.toBe('true');
      const settings = (await server.admin('GET', '/api/settings')).body;
      expect(settings.sync.remoteUrl).toBeNull();
    });
  }
});

describe('Initialize repository (spec 3.5)', () => {
  it('turns the vault into a repository, and the control disappears', async () => {
    const { page } = main;
    await screenshot(page, 'sync-panel-before-init');
    await panel(page).getByRole('button', { name: 'Initialize repository' }).click();
    // The status list is always there: what shows the pass ended is the control going away.
    // `.git` is made before the first commit, so the commit is waited for too.
    await panel(page).getByRole('button', { name: 'Initialize repository' }).waitFor({ state: 'detached' });
    const commits = () => {
      try {
        return git(vault, 'log', '--format=%s').trim().split('\n').length;
      } catch {
        return 0; // no commit yet
      }
    };
    expect(await waitFor(commits, 15_000)).toBeGreaterThanOrEqual(1);
    await expect(panel(page).locator('[data-field="ahead-behind"]').textContent()).resolves.toBe('Nothing has reached the remote yet');
  });
});

describe('the token is write-only (spec 2.9, 5.4)', () => {
  it('saving URL, username and token shows "token set", never the token, and keeps it out of settings.json', async () => {
    const { page } = main;
    await panel(page).locator('input[name="remoteUrl"]').fill(https.url('vault.git'));
    await panel(page).locator('input[name="username"]').fill(USER);
    await panel(page).locator('input[name="token"]').fill(TOKEN);
    await panel(page).getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('token-set').waitFor();
    await expect(panel(page).locator('input[name="token"]').inputValue()).resolves.toBe('');
    expect(await page.content()).not.toContain(TOKEN);
    expect(await fs.readFile(path.join(data, 'settings.json'), 'utf8')).not.toContain(TOKEN);
    expect(page.getByTestId('remote-error')).toBeDefined();
    expect(await page.getByTestId('remote-error').count()).toBe(0);
  });
});

describe('Sync now and the status bar indicator (spec 3.1, 3.4)', () => {
  it('the Backup switch shows the indicator; Sync now turns it gold, then plain when everything is pushed', async () => {
    const { page } = main;
    await page.getByTestId('backup-switch').check();
    await panel(page).getByRole('button', { name: 'Save', exact: true }).click();
    await indicator(page).waitFor();
    const states = await recordIndicator(page);
    await panel(page).getByRole('button', { name: 'Sync now' }).click();
    await waitFor(() => remoteLog().includes('service sync:'), 20_000);
    await waitFor(async () => (await indicator(page).getAttribute('data-state')) === 'clean', 20_000);
    const seen = await states();
    expect(seen.indexOf('running')).toBeGreaterThanOrEqual(0);
    expect(seen.lastIndexOf('clean')).toBeGreaterThan(seen.indexOf('running'));
    // Plain branch symbol: no count.
    expect(await indicator(page).locator('.count').count()).toBe(0);
    await expect(panel(page).locator('[data-field="ahead-behind"]').textContent()).resolves.toBe('0 ahead, 0 behind');
    await expect(panel(page).locator('[data-field="remote-host"]').textContent()).resolves.toBe('127.0.0.1');
    await clearToasts(page);
    await page.locator('#panel-backup').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'sync-panel', true);
  });

  it('an edit shows the symbol with the count of uncommitted changes', async () => {
    const { page } = main;
    await fs.writeFile(path.join(vault, 'Posts/Second.md'), 'A new note.\n');
    await waitFor(async () => (await indicator(page).getAttribute('data-state')) === 'dirty', 15_000);
    await expect(indicator(page).locator('.count').textContent()).resolves.toBe('1');
  });

  it('Snapshot now from the command palette commits locally, and History shows it as Snapshot', async () => {
    const { page } = main;
    await page.keyboard.press('Control+k');
    await page.locator('.palette input').fill('Snapshot');
    await page.keyboard.press('Enter');
    await page.locator('.toast', { hasText: 'Snapshot committed.' }).waitFor();
    expect(git(vault, 'log', '-1', '--format=%s')).toMatch(/^service snapshot: /);
    await openFromTree(page, 'Posts/Second.md');
    await page.locator('#panel-history .section-toggle').click();
    // The note's one commit is the snapshot: its title is the word alone, never the raw subject.
    const commit = page.locator('.timeline .tl-row[data-kind="commit"]').first();
    await commit.waitFor();
    await expect(commit.locator('.tl-title').textContent()).resolves.toBe('Snapshot');
    expect(await page.locator('#panel-history').textContent()).not.toContain('service snapshot:');
  });
});

describe('the panel reports busy, failed and diverged passes (spec 2.10, 3.2, 3.4)', () => {
  it('another process holding the lock: Sync now does nothing and says so; the indicator shows busy', async () => {
    const { page } = main;
    const lock = path.join(vault, '.git', 'service-sync.lock');
    await fs.writeFile(lock, JSON.stringify({ pid: process.pid, hostname: os.hostname(), token: 'other', at: new Date().toISOString() }));
    try {
      await panel(page).getByRole('button', { name: 'Sync now' }).click();
      const busy = panel(page).locator('[data-field="busy"]');
      await busy.waitFor();
      await expect(busy.textContent()).resolves.toContain(`pid ${process.pid}`);
      await waitFor(async () => (await indicator(page).getAttribute('data-state')) === 'busy', 20_000);
    } finally {
      await fs.rm(lock, { force: true });
    }
  });

  it('a remote that refuses the push: the indicator turns red and git’s own error line is shown', async () => {
    const { page } = main;
    // Someone else pushed a commit this vault lacks.
    const other = path.join(base, 'other');
    git(base, 'clone', '-q', path.join(remotes, 'vault.git'), other);
    await fs.writeFile(path.join(other, 'Elsewhere.md'), 'Written on another machine.\n');
    git(other, '-c', 'user.name=O', '-c', 'user.email=o@example.test', 'add', '-A');
    git(other, '-c', 'user.name=O', '-c', 'user.email=o@example.test', 'commit', '-q', '-m', 'elsewhere');
    git(other, 'push', '-q', 'origin', 'main');
    await fs.writeFile(path.join(vault, 'Posts/Third.md'), 'Local change.\n');
    await panel(page).getByRole('button', { name: 'Sync now' }).click();
    await waitFor(async () => (await indicator(page).getAttribute('data-state')) === 'failed', 20_000);
    const line = panel(page).locator('[data-field="git-error"]');
    await line.waitFor();
    expect((await line.textContent())!).toMatch(/reject|fetch first|non-fast-forward|failed/i);
    expect(await line.textContent()).not.toContain(TOKEN);
  });

  it('with Pull first on, histories that diverged stop the pass before any file is touched, and the panel says so', async () => {
    const { page } = main;
    await panel(page).locator('summary', { hasText: 'Advanced' }).click();
    await panel(page).getByLabel(/Pull first/).check();
    await panel(page).getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor(async () => (await server.admin('GET', '/api/settings')).body.sync.pullFirst === true);
    const headBefore = git(vault, 'rev-parse', 'HEAD');
    await panel(page).getByRole('button', { name: 'Sync now' }).click();
    await panel(page).locator('[data-field="diverged"]').waitFor({ timeout: 20_000 });
    expect(git(vault, 'rev-parse', 'HEAD')).toBe(headBefore);
    await expect(fs.stat(path.join(vault, 'Elsewhere.md'))).rejects.toThrow();
  });

  it('while the owner merges by hand, Snapshot now and Sync now refuse and the panel says how to finish or abort it', async () => {
    const { page } = main;
    git(vault, '-c', 'user.name=O', '-c', 'user.email=o@example.test', 'merge', '--no-commit', '--no-ff', '-q', 'origin/main');
    const headBefore = git(vault, 'rev-parse', 'HEAD');
    try {
      await clearToasts(page);
      await page.keyboard.press('Control+k');
      await page.locator('.palette input').fill('Snapshot');
      await page.keyboard.press('Enter');
      await page.locator('.toast.error', { hasText: 'A merge is in progress' }).waitFor();
      await panel(page).getByRole('button', { name: 'Sync now' }).click();
      const said = panel(page).locator('[data-field="git-operation"]');
      await said.waitFor({ timeout: 20_000 });
      await expect(said.textContent()).resolves.toContain('or abort it (git merge --abort)');
      await waitFor(async () => ((await panel(page).locator('[data-field="last"]').textContent()) ?? '').includes('A merge is in progress'), 20_000);
      await waitFor(async () => (await indicator(page).getAttribute('data-state')) === 'failed', 20_000);
      expect(git(vault, 'rev-parse', 'HEAD')).toBe(headBefore);
      await expect(fs.stat(path.join(vault, '.git', 'MERGE_HEAD'))).resolves.toBeTruthy();
    } finally {
      git(vault, 'merge', '--abort');
    }
  });
});

describe('sync on window open (spec 8)', () => {
  it('opening the app with backup on asks the server to apply the rule; a sync in the last 5 minutes means none runs', async () => {
    const fresh = await openAdmin(browser, server, { signIn: false });
    try {
      const opened = fresh.page.waitForResponse((r) => r.url().endsWith('/api/sync/open') && r.request().method() === 'POST');
      await signIn(fresh.page);
      const answer = await opened;
      expect(answer.status()).toBe(200);
      expect(await answer.json()).toEqual({ ran: false });
    } finally {
      await fresh.context.close();
    }
  });
});

describe('Clear token (spec 2.2, 2.9)', () => {
  it('removes git-credentials.json and the form no longer says "token set"', async () => {
    const { page } = main;
    if (!(await panel(page).isVisible())) await openBackupSection(page);
    await page.getByTestId('token-set').waitFor();
    await panel(page).getByRole('button', { name: 'Clear token' }).click();
    await page.getByTestId('token-set').waitFor({ state: 'detached' });
    await expect(fs.stat(path.join(data, 'git-credentials.json'))).rejects.toThrow();
    expect((await server.admin('GET', '/api/settings')).body.tokenSet).toBe(false);
  });
});
