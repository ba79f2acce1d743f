// A client that abandons a request body half sent (a comment, a sign-in, a webmention) is
// gone: nothing answers it and nothing is logged. Each was logged as an unexpected error
// with its stack: 3,000 abandoned bodies made 15,000 log lines (a reviewer's find).
import http from 'node:http';
import { expect, it } from 'vitest';
import { serverForFile } from '../helpers/server.ts';

const server = serverForFile({ env: { COMMENTS: 'on' } });

function abandon(route: string): Promise<void> {
  const url = new URL(server.url);
  return new Promise((resolve) => {
    const req = http.request({ host: url.hostname, port: url.port, path: route, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '5000' } });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write('{"path": "');
    setTimeout(() => req.destroy(), 50);
  });
}

it('abandoned bodies are not logged as errors; the server answers the next request as ever', async () => {
  for (const route of ['/api/comments', '/api/login', '/webmention', '/api/comments', '/api/login']) await abandon(route);
  // Answered after the aborts were met (each is a round trip on the same server).
  for (let i = 0; i < 3; i++) expect((await fetch(server.url + '/api/me')).status).toBeLessThan(500);
  expect(server.output()).not.toMatch(/unexpected error|aborted/);
});
