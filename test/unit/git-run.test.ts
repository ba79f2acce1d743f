// spec 5.4 and 5.5: the environment and options every git process gets.
import { describe, expect, it } from 'vitest';
import { isNonFastForward } from '../../admin/git/remote.ts';
import { errorLine, GitError, gitConfigArgs, gitEnvironment, remoteLines, runGit } from '../../shared/git-run.ts';
import { addSecret } from '../../shared/log.ts';
import { processesWith } from '../helpers/git-remotes.ts';

const hostile: NodeJS.ProcessEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/u',
  GIT_DIR: '/x', GIT_WORK_TREE: '/x', GIT_INDEX_FILE: '/x',
  GIT_OBJECT_DIRECTORY: '/x', GIT_ALTERNATE_OBJECT_DIRECTORIES: '/x',
  GIT_CONFIG: '/x', GIT_CONFIG_GLOBAL: '/x', GIT_CONFIG_SYSTEM: '/x', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_PARAMETERS: "'core.sshCommand'='evil'",
  GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.sshCommand', GIT_CONFIG_VALUE_0: 'evil',
  GIT_SSH: 'evil', GIT_SSH_COMMAND: 'evil', GIT_PROXY_COMMAND: 'evil', GIT_EXTERNAL_DIFF: 'evil',
  GIT_ASKPASS: 'evil', SSH_ASKPASS: 'evil', GIT_TRACE: '1', GIT_TRACE_CURL: '1', GIT_CURL_VERBOSE: '1',
  GIT_EXEC_PATH: '/x', GIT_TEMPLATE_DIR: '/x', GIT_TERMINAL_PROMPT: '1',
  SERVICE_GIT_TOKEN: 'leak', GIT_SSL_CAINFO: '/etc/ca.pem', GIT_AUTHOR_NAME: 'Ann',
};

describe('git environment (spec 5.5)', () => {
  it('removes every listed variable and the rest of GIT_*, keeping TLS trust and identity', () => {
    const env = gitEnvironment(hostile, '/vaults/v', undefined, null);
    const gitVars = Object.keys(env).filter((k) => k.startsWith('GIT_')).sort();
    expect(gitVars).toEqual(['GIT_AUTHOR_NAME', 'GIT_CEILING_DIRECTORIES', 'GIT_EDITOR', 'GIT_MERGE_AUTOEDIT', 'GIT_PAGER', 'GIT_SSL_CAINFO', 'GIT_TERMINAL_PROMPT']);
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
    expect(env.SSH_ASKPASS).toBeUndefined();
    expect(env.SERVICE_GIT_TOKEN).toBeUndefined();
    expect(env.GIT_CEILING_DIRECTORIES).toBe('/vaults');
    expect(env.PATH).toBe('/usr/bin:/bin');
  });

  it('network calls: SERVICE_GIT_SSH_COMMAND verbatim as GIT_SSH_COMMAND, the token only in variables of that process', () => {
    const env = gitEnvironment(hostile, '/v', { token: 'T0KEN', username: 'ann', sshCommand: 'ssh -i /k/id -o IdentitiesOnly=yes' }, '/tmp/askpass.sh');
    expect(env.GIT_SSH_COMMAND).toBe('ssh -i /k/id -o IdentitiesOnly=yes');
    expect(env.GIT_ASKPASS).toBe('/tmp/askpass.sh');
    expect(env.SERVICE_GIT_TOKEN).toBe('T0KEN');
    expect(env.SERVICE_GIT_USERNAME).toBe('ann');
    const noSsh = gitEnvironment(hostile, '/v', { token: null, username: null, sshCommand: null }, '/tmp/a');
    expect(noSsh.GIT_SSH_COMMAND).toBeUndefined();
    expect(noSsh.SERVICE_GIT_TOKEN).toBeUndefined();
  });

  it('network calls allow only https and ssh, local calls no protocol at all (credential stores are off for every call: git-safety)', () => {
    const args = gitConfigArgs(true).join(' ');
    expect(args).toContain('-c protocol.allow=never');
    expect(args).toContain('-c protocol.https.allow=always');
    expect(args).toContain('-c protocol.ssh.allow=always');
    const local = gitConfigArgs(false).join(' ');
    for (const name of ['ext', 'file', 'git', 'fd', 'http', 'https', 'ssh']) expect(local).toContain(`-c protocol.${name}.allow=never`);
    expect(local).toContain('-c protocol.allow=never');
  });
});

describe('errors (spec 5.4: scrubbed of the token and URL user info)', () => {
  it("picks git's own line and scrubs it", () => {
    addSecret('s3cr3t-token-value');
    const stderr = "hint: x\nfatal: unable to access 'https://ann:s3cr3t-token-value@host/r.git/': 403\n";
    const line = errorLine(stderr);
    expect(line).toMatch(/^fatal: unable to access/);
    expect(line).not.toContain('s3cr3t-token-value');
    expect(line).not.toContain('ann:');
    expect(errorLine('To host\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs\n')).toBe('! [rejected]        main -> main (fetch first)');
  });

  it('a line that names files on the lines after it carries them (at most five)', () => {
    const stderr = 'Updating 1..2\nerror: Your local changes to the following files would be overwritten by merge:\n\tPosts/A.md\n\tB.md\nPlease commit your changes or stash them before you merge.\nAborting\n';
    expect(errorLine(stderr)).toBe('error: Your local changes to the following files would be overwritten by merge: Posts/A.md, B.md');
    const many = 'error: The following untracked working tree files would be overwritten by merge:\n' + [1, 2, 3, 4, 5, 6, 7].map((i) => `\tN${i}.md\n`).join('') + 'Aborting\n';
    expect(errorLine(many)).toBe('error: The following untracked working tree files would be overwritten by merge: N1.md, N2.md, N3.md, N4.md, N5.md and 2 more');
  });

  it("keeps the remote's own lines (a hook's refusal), scrubbed, without escapes, blank lines or git's prefix", () => {
    addSecret('s3cr3t-token-value');
    const stderr = [
      'remote: error: GH013: Repository rule violations found for refs/heads/main.        ',
      'remote: ',
      'remote:   - Push cannot contain secrets\x1b[K',
      'remote: token s3cr3t-token-value at https://ann:pw@host/x \u202eevil\x07',
      'To host:r.git',
      ' ! [remote rejected] HEAD -> main (pre-receive hook declined)',
      "error: failed to push some refs to 'host:r.git'",
    ].join('\n');
    const err = new GitError(errorLine(stderr), 1, stderr);
    expect(err.line).toBe('! [remote rejected] HEAD -> main (pre-receive hook declined)');
    expect(err.remote).toEqual(['error: GH013: Repository rule violations found for refs/heads/main.', '  - Push cannot contain secrets', 'token *** at https://***@host/x evil']);
    expect(remoteLines('fatal: could not read from remote repository\n')).toEqual([]);
    // A remote that prints pages of it: the first 30 lines, then an ellipsis.
    expect(remoteLines(Array.from({ length: 100 }, (_, i) => `remote: line ${i}`).join('\n'))).toHaveLength(31);
  });

  it("a hook's words never pass for git's own non-fast-forward refusal", () => {
    const line = '! [remote rejected] HEAD -> main (pre-receive hook declined)';
    expect(isNonFastForward(line, 'remote: non-fast-forward pushes are not allowed here\n ! [remote rejected] HEAD -> main (pre-receive hook declined)\n')).toBe(false);
    expect(isNonFastForward('! [rejected]        HEAD -> main (fetch first)', 'hint: Updates were rejected because the remote contains work\n')).toBe(true);
  });

  it('runs git without a shell: shell syntax in an argument stays literal', async () => {
    const res = await runGit(['--version', '$(touch /tmp/vs-should-not-exist)'], { cwd: '/tmp', okCodes: [129] }).catch((e) => e);
    expect(res).toBeTruthy();
    await expect(import('node:fs').then((fs) => fs.promises.stat('/tmp/vs-should-not-exist'))).rejects.toThrow();
  });

  it('a timeout kills git with every process it started, and says so', async () => {
    const started = Date.now();
    const err = await runGit(['-c', 'alias.wait=!sleep 7.25', 'wait'], { cwd: '/tmp', timeoutMs: 300 }).catch((e) => e);
    expect(err).toBeInstanceOf(GitError);
    expect(err.timedOut).toBe(true);
    expect(err.message).toMatch(/took longer than/);
    expect(Date.now() - started).toBeLessThan(3000);
    await new Promise((r) => setTimeout(r, 100));
    expect(processesWith('sleep 7.25')).toEqual([]);
  });
});
