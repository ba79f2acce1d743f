// The save benchmark's poller reads a real server's answers over one kept-alive socket:
// bodies whole (even split across packets), 304s without one, a new connection after the
// server closes an idle one, and a chunked answer refused rather than misread.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PollClient } from '../../scripts/bench/_poll-client.ts';

let server: http.Server;
let port = 0;
const sockets = new Set<string>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    sockets.add(`${req.socket.remotePort}`);
    if (req.url === '/chunked') {
      res.write('part');
      return void res.end();
    }
    const body = req.url === '/big' ? 'x'.repeat(200_000) + 'TOKEN' : 'page TOKEN';
    const etag = `"${body.length}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag });
      return void res.end();
    }
    res.writeHead(200, { etag, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('PollClient', () => {
  it('reads bodies whole and revalidates on one connection', async () => {
    sockets.clear();
    const client = new PollClient(port);
    const first = await client.get('/big', null);
    expect(first.status).toBe(200);
    expect(first.body.length).toBe(200_005);
    expect(first.body.includes('TOKEN')).toBe(true);
    const again = await client.get('/big', first.etag);
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const small = await client.get('/small', null);
    expect(small.body.toString()).toBe('page TOKEN');
    expect(sockets.size).toBe(1);
    client.close();
  });

  it('connects again after the server closed an idle connection', async () => {
    const client = new PollClient(port);
    expect((await client.get('/small', null)).status).toBe(200);
    server.closeIdleConnections();
    // The close reaches the client before its next request, which opens a new connection.
    await new Promise((r) => setTimeout(r, 50));
    expect((await client.get('/small', null)).body.toString()).toBe('page TOKEN');
    client.close();
  });

  it('refuses a chunked answer', async () => {
    const client = new PollClient(port);
    await expect(client.get('/chunked', null)).rejects.toThrow(/Content-Length/);
    client.close();
  });
});
