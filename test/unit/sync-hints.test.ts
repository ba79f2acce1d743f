// A failed sync says what to check before git's own line: the failures an owner meets most,
// each in one sentence; anything else, git's line alone.
import { describe, expect, it } from 'vitest';
import { gitHint } from '../../admin/sync/pass.ts';

describe("a failed sync's hint", () => {
  it('names what to check for each common failure', () => {
    expect(gitHint("fatal: unable to access 'https://127.0.0.1:4739/o/r.git/': Failed to connect to 127.0.0.1 port 4739 after 0 ms: Couldn't connect to server")).toMatch(/^The remote did not answer/);
    expect(gitHint("fatal: unable to access 'https://nohost.invalid/r.git/': Could not resolve host: nohost.invalid")).toMatch(/^The remote’s host name was not found/);
    expect(gitHint("fatal: Authentication failed for 'https://example.org/r.git/'")).toMatch(/^The remote refused the credentials/);
    expect(gitHint('git@example.org: Permission denied (publickey).')).toMatch(/^The remote refused the credentials/);
    expect(gitHint("remote: Repository not found.\nfatal: repository 'https://example.org/x.git/' not found")).toMatch(/^There is no repository/);
    expect(gitHint("fatal: unable to access 'https://example.org/': SSL certificate problem: self-signed certificate")).toMatch(/GIT_SSL_CAINFO/);
    expect(gitHint('Host key verification failed.')).toMatch(/SSH host key/);
  });

  it('adds nothing to a failure it does not know', () => {
    expect(gitHint('error: some other thing')).toBe('');
  });
});
