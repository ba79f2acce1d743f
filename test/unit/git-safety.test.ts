// CONTRACT §11: what the one git runner pins so git runs nothing the vault names.
import { afterEach, describe, expect, it } from 'vitest';
import { basePins, configureGitRunner, filterNames, filterPins, mayRunFilters, parseConfigList, subcommandIndex, untrustedRepoSetting, withDiffSwitches } from '../../shared/git-safety.ts';

afterEach(() => configureGitRunner({ repoPrograms: false }));

describe('pins', () => {
  it('every call pins hooks, fsmonitor, ssh, askpass, credential helpers, alternate refs and signing', () => {
    const pins = Object.fromEntries(basePins('/empty'));
    expect(pins).toMatchObject({
      'core.hooksPath': '/empty',
      'core.fsmonitor': 'false',
      'core.sshCommand': 'ssh',
      'core.askPass': '',
      'credential.helper': '',
      'core.alternateRefsCommand': 'true',
      'commit.gpgSign': 'false',
      'log.showSignature': 'false',
    });
  });

  it('SERVICE_GIT_HOOKS=on lifts the repository-program pins, not the credential ones', () => {
    configureGitRunner({ repoPrograms: true });
    const pins = Object.fromEntries(basePins('/empty'));
    expect(pins['core.hooksPath']).toBeUndefined();
    expect(pins['core.fsmonitor']).toBeUndefined();
    expect(pins['credential.helper']).toBe('');
    expect(pins['submodule.recurse']).toBe('false');
  });

  it('no call goes on into a nested repository, whatever the vault asks', () => {
    for (const repoPrograms of [false, true]) {
      configureGitRunner({ repoPrograms });
      expect(Object.fromEntries(basePins('/empty'))).toMatchObject({ 'submodule.recurse': 'false', 'fetch.recurseSubmodules': 'false', 'push.recurseSubmodules': 'no' });
    }
  });

  it('filter drivers are read from config names, dotted and odd names included, and emptied', () => {
    const list = 'local\0filter.lfs.clean\ngit-lfs clean -- %f\0local\0filter.lfs.smudge\nx\0global\0filter.lfs.required\ntrue\0local\0filter.a.b=c.process\nx\0local\0core.x\n1\0';
    const names = filterNames(parseConfigList(list));
    expect(names).toEqual(['lfs', 'a.b=c']);
    expect(filterPins(['lfs'])).toEqual([
      ['filter.lfs.clean', ''],
      ['filter.lfs.smudge', ''],
      ['filter.lfs.process', ''],
    ]);
  });
});

describe('per call', () => {
  it('finds the subcommand after global options and -c pairs', () => {
    expect(subcommandIndex(['-c', 'user.name=x', '--literal-pathspecs', 'log', '-p'])).toBe(3);
    expect(subcommandIndex(['--version'])).toBe(0);
  });

  it('diffing commands get --no-ext-diff --no-textconv right after the subcommand', () => {
    expect(withDiffSwitches(['--literal-pathspecs', 'log', '--follow'])).toEqual(['--literal-pathspecs', 'log', '--no-ext-diff', '--no-textconv', '--follow']);
    expect(withDiffSwitches(['diff', '--cached'])).toEqual(['diff', '--no-ext-diff', '--no-textconv', '--cached']);
    expect(withDiffSwitches(['commit', '-m', 'x'])).toEqual(['commit', '-m', 'x']);
  });

  it('only commands that may read working-tree content look the filters up', () => {
    for (const cmd of ['add', 'status', 'commit', 'merge', 'rm', 'diff', 'checkout', 'stash']) expect(mayRunFilters([cmd])).toBe(true);
    for (const cmd of ['rev-parse', 'log', 'cat-file', 'fetch', 'push', 'config', 'init']) expect(mayRunFilters([cmd])).toBe(false);
  });
});

describe('the vault’s own git settings (CONTRACT §11, spec 5.4)', () => {
  const local = (key: string, value = 'x') => ({ scope: 'local', key, value });

  it('takes what a clone, git init, Obsidian Git and common advice write', () => {
    const entries = [
      local('core.repositoryformatversion', '0'), local('core.filemode', 'true'), local('core.bare', 'false'), local('core.logallrefupdates', 'true'),
      local('core.ignorecase', 'true'), local('core.precomposeunicode', 'true'), local('core.autocrlf', 'input'),
      local('remote.origin.url', 'https://github.com/me/vault.git'), local('remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*'),
      local('branch.main.remote', 'origin'), local('branch.main.merge', 'refs/heads/main'), local('user.name', 'Me'), local('user.email', 'me@example.org'),
      local('pull.rebase', 'false'), local('http.postbuffer', '524288000'), local('lfs.repositoryformatversion', '0'), local('filter.lfs.clean', 'git-lfs clean -- %f'),
      local('extensions.worktreeconfig', 'true'), local('extensions.objectformat', 'sha1'),
      // Neutralised by pins and switches: taken, and never run.
      local('core.hookspath', '.githooks'), local('core.fsmonitor', 'x'), local('core.sshcommand', 'x'), local('diff.external', 'x'), local('credential.helper', 'x'),
    ];
    expect(untrustedRepoSetting(entries)).toBeNull();
  });

  it('refuses each setting that sends the vault or the token elsewhere, runs a program or works outside the vault', () => {
    for (const [key, value] of [
      ['protocol.ext.allow', 'always'], ['url.ext::sh -c x.insteadof', 'https://h/'], ['url.https://evil/.pushinsteadof', 'https://h/'],
      ['remote.origin.pushurl', 'https://evil/x.git'], ['remote.origin.proxy', 'http://p'], ['http.proxy', 'http://p'], ['http.sslverify', 'false'],
      ['http.https://h/.sslcainfo', '/x'], ['http.cookiefile', '/etc/x'], ['http.extraheader', 'X: y'], ['core.worktree', '/data'], ['core.bare', 'true'],
      ['core.gitproxy', 'x'], ['merge.evil.driver', 'sh -c x'], ['trace2.eventtarget', '/tmp/x'], ['sendemail.smtpserver', 'x'],
      ['extensions.partialclone', 'origin'], ['remote.origin.promisor', 'true'], ['remote.origin.partialclonefilter', 'blob:none'],
    ] as const) {
      expect(untrustedRepoSetting([local('core.filemode', 'true'), local(key, value)]), key).toBe(key);
    }
  });

  it('refuses a second remote.origin.url (a push goes to every URL of a remote)', () => {
    expect(untrustedRepoSetting([local('remote.origin.url', 'https://h/a.git'), local('remote.origin.url', 'https://evil/b.git')])).toMatch(/^remote\.origin\.url/);
  });

  it('trusts the machine’s own settings: system, global and the command line', () => {
    expect(untrustedRepoSetting([{ scope: 'global', key: 'http.proxy', value: 'http://corp' }, { scope: 'system', key: 'url.x.insteadof', value: 'y' }, { scope: 'command', key: 'protocol.allow', value: 'never' }])).toBeNull();
    expect(untrustedRepoSetting([{ scope: 'worktree', key: 'core.worktree', value: '/x' }])).toBe('core.worktree');
  });

  it('reads git config --list --show-scope output, values with newlines included', () => {
    expect(parseConfigList('local\0core.bare\nfalse\0local\0user.name\ntwo\nlines\0command\0core.x\0')).toEqual([
      { scope: 'local', key: 'core.bare', value: 'false' },
      { scope: 'local', key: 'user.name', value: 'two\nlines' },
      { scope: 'command', key: 'core.x', value: '' },
    ]);
  });
});
