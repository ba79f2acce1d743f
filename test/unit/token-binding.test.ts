// spec 5.4: the token goes only to the host the admin saved it for, and on the same port.
import { expect, it } from 'vitest';
import { tokenFor } from '../../admin/git/credentials.ts';
import { remoteAuthority, remotePlace } from '../../admin/git/remote-url.ts';

const token = 'tok';
const to = (url: string | null) => remotePlace(url);

it('a bound token goes to its host alone; one saved with no remote goes nowhere; an unbound file from before the binding goes as it did', () => {
  const bound = { token, username: 'u', host: 'git.example', authority: 'git.example' };
  expect(tokenFor(bound, to('https://GIT.example/o/r.git'))).toBe(token);
  expect(tokenFor(bound, to('https://evil.example/o/r.git'))).toBeNull();
  expect(tokenFor(bound, to(null))).toBeNull();
  expect(tokenFor({ token, username: 'u', host: null, authority: null }, to('https://evil.example/r.git'))).toBeNull();
  expect(tokenFor({ token, username: 'u' }, to('https://git.example/r.git'))).toBe(token);
  expect(tokenFor(null, to('https://git.example/r.git'))).toBeNull();
});

it('another port of the same host is another server; the default port named or not is the same one', () => {
  const bound = { token, username: 'u', host: '127.0.0.1', authority: '127.0.0.1:44133' };
  expect(tokenFor(bound, to('https://127.0.0.1:44133/r3.git'))).toBe(token);
  expect(tokenFor(bound, to('https://127.0.0.1:36803/r3.git'))).toBeNull();
  expect(tokenFor(bound, to('https://127.0.0.1/r3.git'))).toBeNull();
  const standard = { token, username: 'u', host: 'git.example', authority: 'git.example' };
  expect(tokenFor(standard, to('https://git.example:443/r.git'))).toBe(token);
  expect(tokenFor(standard, to('https://git.example:8443/r.git'))).toBeNull();
  // A file bound before the port counted keeps its host alone, until the next save.
  expect(tokenFor({ token, username: 'u', host: '127.0.0.1' }, to('https://127.0.0.1:36803/r3.git'))).toBe(token);
});

it('remoteAuthority: host and any port but the default, for https and ssh', () => {
  expect(remoteAuthority('https://user@Git.Example:8443/o/r.git')).toBe('git.example:8443');
  expect(remoteAuthority('https://git.example:443/o/r.git')).toBe('git.example');
  expect(remoteAuthority('ssh://git@git.example:2222/o/r.git')).toBe('git.example:2222');
  expect(remoteAuthority('ssh://git@git.example:22/o/r.git')).toBe('git.example');
  expect(remoteAuthority('git@git.example:o/r.git')).toBe('git.example');
  expect(remoteAuthority('https://[::1]:8443/r.git')).toBe('[::1]:8443');
  expect(remoteAuthority(null)).toBeNull();
});
