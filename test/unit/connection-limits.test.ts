// A client holding sockets open may not take every file descriptor the process has
// (shared/connection-limits.ts): connections stop short of the open-file limit, and a
// request's headers must be in within 20 s.
import http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HEADERS_TIMEOUT_MS, limitConnections, maxConnectionsFor, openFileLimit } from '../../shared/connection-limits.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

describe('connection limits', () => {
  it('reads the open-file limit the kernel gives the process', async () => {
    const file = path.join(await tempDir(), 'limits');
    await fs.writeFile(file, 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 524288               files\n');
    expect(openFileLimit(file)).toBe(1024);
    expect(openFileLimit(path.join(path.dirname(file), 'missing'))).toBeNull();
    if (process.platform === 'linux') expect(openFileLimit()).toBeGreaterThan(0);
  });

  it('keeps descriptors for files, git and the build below the limit; never fewer than 64 connections', () => {
    expect(maxConnectionsFor(20_000)).toBe(15_744);
    expect(maxConnectionsFor(1024)).toBe(563);
    expect(maxConnectionsFor(256)).toBe(64);
    expect(maxConnectionsFor(null)).toBeNull();
  });

  it('a server is given both', () => {
    const server = http.createServer();
    limitConnections(server);
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    if (process.platform === 'linux') expect(server.maxConnections).toBe(maxConnectionsFor(openFileLimit()));
  });
});
