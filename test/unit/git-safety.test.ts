// CONTRACT §11: what the one git runner pins so git runs nothing the vault names.
import { afterEach, describe, expect, it } from 'vitest';
import { basePins, configureGitRunner, filterNames, filterPins, mayRunFilters, subcommandIndex, withDiffSwitches } from '../../shared/git-safety.ts';

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
  });

  it('filter drivers are read from config names, dotted and odd names included, and emptied', () => {
    const names = filterNames('filter.lfs.clean\0filter.lfs.smudge\0filter.lfs.required\0filter.a.b=c.process\0core.x\0');
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
