// A write that fails because of the disk answers what the disk did, never a
// bare 500. Each errno, as the write path names it (storageFailure) and as a route
// answers it over real HTTP, whether a domain function named it or not.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendError, statusOf } from '../../admin/http.ts';
import { storageFailure } from '../../shared/atomic-write.ts';
import { DomainError } from '../../shared/errors.ts';

const errnoError = (code: string) => Object.assign(new Error(`${code}: failed, open '/somewhere/outside/the/vault'`), { code });

const ANSWERS: Array<[string, number, string]> = [
  ['ENOSPC', 507, 'no_space'],
  ['EDQUOT', 507, 'no_space'],
  ['EFBIG', 507, 'no_space'],
  ['EROFS', 503, 'not_writable'],
  ['EACCES', 503, 'not_writable'],
  ['EPERM', 503, 'not_writable'],
  ['EISDIR', 500, 'internal'],
  ['ENOENT', 500, 'internal'],
];

let server: http.Server;
let url: string;
beforeAll(async () => {
  // /named/<code>: the write path named the error; /raw/<code>: a step no domain function named.
  server = http.createServer((req, res) => {
    const [, how, code] = (req.url ?? '').split('/');
    sendError(res, how === 'named' ? storageFailure(errnoError(code!)) : errnoError(code!));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('each errno of a failed write maps to its answer', () => {
  it.each(ANSWERS)('%s → %i %s', async (errno, status, code) => {
    const named = storageFailure(errnoError(errno));
    if (code === 'internal') expect(named).not.toBeInstanceOf(DomainError);
    else expect((named as DomainError).code).toBe(code);
    expect(statusOf(code)).toBe(status);
    for (const how of ['named', 'raw']) {
      const res = await fetch(`${url}/${how}/${errno}`);
      const body = await res.json();
      expect({ how, status: res.status, code: body.code }).toEqual({ how, status, code });
      // The answer names the errno when it is the disk's, and never a path.
      if (code !== 'internal') expect(body.error).toContain(errno);
      expect(body.error).not.toContain('/somewhere');
    }
  });
});
