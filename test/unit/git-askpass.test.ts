// The askpass script that hands git the token (shared/git-run.ts runnerFiles) answers only
// git's two prompts for the remote's own authority, word for word. It once answered any
// prompt ending in `//<host>'` or `@<host>'`: a `url.*.insteadOf` in the vault's config
// leading to another host, with `credential.useHttpPath` on, made that host's prompt end so
// (`https://alice@evil.example/a//githost.example`) and the token went there.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { askpassForTests } from '../../shared/git-run.ts';

const { file, vars } = askpassForTests();

function ask(prompt: string, host = 'githost.example'): { out: string; code: number | null } {
  const run = spawnSync(file, [prompt], { env: { PATH: process.env.PATH, [vars.token]: 'TOKEN', [vars.user]: 'alice', [vars.host]: host }, encoding: 'utf8' });
  return { out: run.stdout, code: run.status };
}

describe('the askpass script', () => {
  it("answers git's username and password prompts for the remote's own authority", () => {
    expect(ask("Username for 'https://githost.example': ")).toEqual({ out: 'alice\n', code: 0 });
    expect(ask("Password for 'https://alice@githost.example': ")).toEqual({ out: 'TOKEN\n', code: 0 });
    expect(ask("Password for 'https://alice@127.0.0.1:8443': ", '127.0.0.1:8443')).toEqual({ out: 'TOKEN\n', code: 0 });
  });

  it('answers nothing to a prompt naming another host, a path, another user or another port', () => {
    for (const prompt of [
      "Username for 'https://evil.example/a//githost.example': ",
      "Password for 'https://alice@evil.example/a//githost.example': ",
      "Password for 'https://alice@evil.example/@githost.example': ",
      "Password for 'https://alice@githost.example/owner/repo.git': ",
      "Password for 'https://bob@githost.example': ",
      "Password for 'https://alice@githost.example.evil.example': ",
      "Password for 'https://alice@githost.example:444': ",
      "Password for 'http://alice@githost.example': ",
    ]) {
      expect(ask(prompt), prompt).toEqual({ out: '', code: 1 });
    }
  });
});
