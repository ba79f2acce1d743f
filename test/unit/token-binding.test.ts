// spec 5.4: the token goes only to the host the admin saved it for.
import { expect, it } from 'vitest';
import { tokenFor } from '../../admin/git/credentials.ts';

it('a bound token goes to its host alone; one saved with no remote goes nowhere; an unbound file from before the binding goes as it did', () => {
  const token = 'tok';
  expect(tokenFor({ token, username: 'u', host: 'git.example' }, 'GIT.example')).toBe(token);
  expect(tokenFor({ token, username: 'u', host: 'git.example' }, 'evil.example')).toBeNull();
  expect(tokenFor({ token, username: 'u', host: 'git.example' }, null)).toBeNull();
  expect(tokenFor({ token, username: 'u', host: null }, 'evil.example')).toBeNull();
  expect(tokenFor({ token, username: 'u' }, 'git.example')).toBe(token);
  expect(tokenFor(null, 'git.example')).toBeNull();
});
