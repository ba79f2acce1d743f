// spec 2.9 and 5.4: which remote URLs and branch names are accepted, one row each.
import { describe, expect, it } from 'vitest';
import { promises as fs } from 'node:fs';
import { branchRefusal, checkBranchName, checkRemoteUrl, remoteHost, remoteUrlRefusal } from '../../admin/git/remote-url.ts';
import { ARABIC_REASONS } from '../../admin/ui/src/settings/refusals.ts';

const ok = true;
const refused = false;

const remoteUrls: Array<[string, boolean, string]> = [
  // Good: HTTPS
  ['https://github.com/owner/repo.git', ok, 'plain https'],
  ['https://github.com/owner/repo', ok, 'https without .git'],
  ['https://gitlab.example.com:8443/group/sub/repo.git', ok, 'https with port and subgroups'],
  ['https://127.0.0.1:9000/repo.git', ok, 'https to an IPv4 address'],
  ['https://[::1]:9000/repo.git', ok, 'https to an IPv6 address'],
  ['https://user@bitbucket.org/owner/repo.git', ok, 'https with a plain user name (Bitbucket style)'],
  ['https://dev.azure.com/org/project/_git/repo', ok, 'Azure DevOps path'],
  ['https://host/owner/my%20repo.git', ok, 'percent-encoded space in the path'],
  // Good: SSH
  ['git@github.com:owner/repo.git', ok, 'scp-style'],
  ['github.com:owner/repo.git', ok, 'scp-style without user'],
  ['git@localhost:/tmp/remote.git', ok, 'scp-style absolute path'],
  ['git@host:~/repo.git', ok, 'scp-style home path'],
  ['ssh://git@github.com/owner/repo.git', ok, 'ssh:// URL'],
  ['ssh://git@host:2222/owner/repo.git', ok, 'ssh:// with a port'],
  ['ssh://host/~user/repo.git', ok, 'ssh:// without user, home path'],
  // Embedded credentials
  ['https://user:tok@host/x', refused, 'user and token in https'],
  ['https://user:@host/x', refused, 'empty password in https'],
  ['https://:tok@host/x', refused, 'token as password without user'],
  ['https://user%3Atok@host/x', refused, 'percent-encoded colon in the user part'],
  ['ssh://git:secret@host/x.git', refused, 'password in ssh://'],
  ['user:tok@host:repo.git', refused, 'credential shape in scp-style'],
  // Token-shaped user parts, on every scheme
  ['https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r.git', refused, 'GitHub classic token as user'],
  ['https://github_pat_11ABCDEFG0123456789_abcdefghijklmnop@github.com/o/r.git', refused, 'GitHub fine-grained token as user'],
  ['https://glpat-abcdefghij0123456789@gitlab.com/o/r.git', refused, 'GitLab token as user'],
  ['https://%67hp_abcdefghijklmnopqrstuvwxyz0123@github.com/o/r.git', refused, 'percent-encoded ghp_ token'],
  ['ssh://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r.git', refused, 'token as ssh user'],
  ['glpat-abcdefghij0123456789@gitlab.com:o/r.git', refused, 'token as scp-style user'],
  ['https://0123456789abcdef0123456789abcdef01234567@host/o/r.git', refused, '40-hex OAuth token as user'],
  ['https://Xk2p9QmZ7vB4nL8wR3tY6uJ1hG5fD0sA9cE2@host/o/r.git', refused, 'long random user part'],
  // Option injection
  ['-oProxyCommand=touch /tmp/pwn', refused, 'leading dash'],
  ['ssh://-oProxyCommand=touch%20/tmp/pwn/x', refused, 'ssh host that is an option'],
  ['ssh://-oProxyCommand=id@host/x', refused, 'ssh user that is an option'],
  ['-oProxyCommand=x:repo.git', refused, 'scp host that is an option'],
  ['git@host:-repo.git', refused, 'repository path that is an option'],
  ['https://host/-upload-pack=evil', refused, 'path segment that is an option'],
  // Other schemes and transports
  ['ext::sh -c touch% /tmp/pwn', refused, 'ext:: transport'],
  ['ext::sh', refused, 'ext:: transport without spaces'],
  ['fd::17', refused, 'fd:: transport'],
  ['file:///etc', refused, 'file://'],
  ['http://github.com/owner/repo.git', refused, 'plain http'],
  ['git://github.com/owner/repo.git', refused, 'git:// protocol'],
  ['git+ssh://host/repo.git', refused, 'git+ssh alias'],
  ['ftp://host/repo.git', refused, 'ftp'],
  ['/srv/git/repo.git', refused, 'absolute local path'],
  ['./repo.git', refused, 'relative local path'],
  ['../other-vault', refused, 'parent folder'],
  ['~/repo.git', refused, 'home-relative local path'],
  ['C:\\repos\\x.git', refused, 'Windows path'],
  // Shell characters, whitespace, newlines
  ['git@host:x;rm -rf /', refused, 'semicolon and spaces'],
  ['https://host/repo.git;id', refused, 'semicolon'],
  ['https://host/$(id).git', refused, 'command substitution'],
  ['https://host/`id`.git', refused, 'backticks'],
  ['https://host/repo.git|nc', refused, 'pipe'],
  ['https://host/repo.git&&id', refused, 'ampersands'],
  ["https://host/re'po.git", refused, 'quote'],
  ['https://host/repo.git\nhttps://evil/x', refused, 'newline-injected second URL'],
  ['https://host/repo.git\r\n[core]', refused, 'CRLF-injected config'],
  ['git@host:repo.git\n-oProxyCommand=x', refused, 'newline then option'],
  ['https://host/repo%0a.git', refused, 'percent-encoded newline'],
  ['https://host/repo.git ', refused, 'trailing space'],
  [' https://host/repo.git', refused, 'leading space'],
  ['https://host/re\tpo.git', refused, 'tab'],
  ['https://host/repo.git#frag', refused, 'fragment'],
  ['https://host/repo.git?x=1', refused, 'query string'],
  ['https://hóst/repo.git', refused, 'non-ASCII host'],
  // Malformed
  ['', refused, 'empty'],
  ['https://', refused, 'no host'],
  ['https://host', refused, 'no repository'],
  ['https://host/', refused, 'root only'],
  ['https://host:99999/x.git', refused, 'port out of range'],
  ['https://host:abc/x.git', refused, 'port not a number'],
  ['https://ho_st/x.git', refused, 'underscore in host'],
  ['https://-host/x.git', refused, 'host starting with a dash'],
  ['https://host/' + 'a'.repeat(2100), refused, 'too long'],
];

describe('remote URL validation (spec 2.9: https and SSH only; no credentials, shell characters or token-shaped users)', () => {
  it('covers at least 40 URLs', () => {
    expect(remoteUrls.length).toBeGreaterThanOrEqual(40);
  });
  for (const [url, accepted, why] of remoteUrls) {
    it(`${accepted ? 'accepts' : 'refuses'} ${why}: ${JSON.stringify(url.length > 80 ? url.slice(0, 80) + '…' : url)}`, () => {
      const verdict = checkRemoteUrl(url);
      if (accepted) expect(verdict).toBeNull();
      else expect(typeof verdict === 'string' && verdict.length > 0).toBe(true);
    });
  }
  it('names the reason in a sentence a user can act on', () => {
    expect(checkRemoteUrl('https://user:tok@host/x')).toMatch(/token/i);
    expect(checkRemoteUrl('file:///etc')).toMatch(/file:\/\//);
    expect(checkRemoteUrl('git@host:x;rm -rf /')).toMatch(/spaces|shell/i);
  });
});

const branches: Array<[string, boolean]> = [
  ['main', ok],
  ['master', ok],
  ['feature/notes-2024', ok],
  ['release-1.2', ok],
  ['ملاحظات', ok],
  ['', refused],
  ['-main', refused],
  ['HEAD', refused],
  ['@', refused],
  ['a..b', refused],
  ['a b', refused],
  ['a~1', refused],
  ['a^', refused],
  ['a:b', refused],
  ['a?', refused],
  ['a*', refused],
  ['a[b', refused],
  ['a\\b', refused],
  ['/main', refused],
  ['main/', refused],
  ['a//b', refused],
  ['main.', refused],
  ['.hidden', refused],
  ['a/.b', refused],
  ['main.lock', refused],
  ['a/b.lock/c', refused],
  ['a@{1}', refused],
  ['a\nb', refused],
  ['a\u007fb', refused],
];

describe('branch names (spec 2.9: valid as git check-ref-format says)', () => {
  for (const [name, accepted] of branches) {
    it(`${accepted ? 'accepts' : 'refuses'} ${JSON.stringify(name)}`, () => {
      expect(checkBranchName(name) === null).toBe(accepted);
    });
  }
});

describe('remote host for the status panel', () => {
  it('reads the host of every accepted form', () => {
    expect(remoteHost('https://github.com/o/r.git')).toBe('github.com');
    expect(remoteHost('https://user@bitbucket.org:443/o/r.git')).toBe('bitbucket.org');
    expect(remoteHost('git@gitlab.com:o/r.git')).toBe('gitlab.com');
    expect(remoteHost('ssh://git@host:2222/o/r.git')).toBe('host');
    expect(remoteHost('https://[::1]:9000/r.git')).toBe('::1');
    expect(remoteHost(null)).toBeNull();
  });
});

describe('a refusal names why as a stable reason the interface says in its language', () => {
  it('gives the reason and its figures beside the sentence', () => {
    expect(remoteUrlRefusal('file:///tmp/x.git')).toEqual({ reason: 'remote_scheme', message: 'The file:// scheme is not allowed; use https:// or SSH.', figures: { scheme: 'file' } });
    expect(remoteUrlRefusal('https://u:p@example.org/o/r.git')?.reason).toBe('remote_credentials');
    expect(branchRefusal('HEAD')).toEqual({ reason: 'branch_reserved', message: 'That is not a valid branch name. "HEAD" is reserved.', figures: { value: 'HEAD' } });
    expect(remoteUrlRefusal('https://example.org/o/r.git')).toBeNull();
    expect(branchRefusal('main')).toBeNull();
  });

  it('every reason the git code (and the settings rule) gives has an Arabic sentence', async () => {
    const source = await fs.readFile(new URL('../../admin/git/remote-url.ts', import.meta.url), 'utf8');
    const reasons = new Set([...source.matchAll(/\bno\('(\w+)'/g)].map((m) => m[1]!));
    const rule = await fs.readFile(new URL('../../shared/settings/validate.ts', import.meta.url), 'utf8');
    for (const m of rule.matchAll(/reason: '((?:remote|branch)_\w+)'/g)) reasons.add(m[1]!);
    expect(reasons.size).toBeGreaterThan(20);
    expect([...reasons].filter((r) => !ARABIC_REASONS.includes(r))).toEqual([]);
  });
});
