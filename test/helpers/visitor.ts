// A visitor of the public site, from a loopback network of its own (127.x.y.2, each in a
// /24 of its own): the comment rules that count per client network (3 a minute) and per
// address (the 2 s rule) see each test's visitor apart. Plain node:http, so the source address can be chosen.
import http from 'node:http';

export interface VisitorAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

export function request(url: string, init: { method?: string; from?: string; headers?: Record<string, string>; body?: string } = {}): Promise<VisitorAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', localAddress: init.from, headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
    });
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

export class Visitor {
  constructor(
    private readonly base: string,
    readonly from: string,
  ) {}

  get(route: string, headers: Record<string, string> = {}): Promise<VisitorAnswer> {
    return request(this.base + route, { from: this.from, headers });
  }

  /** A JSON post (the page's script, or any client). */
  postJson(route: string, body: unknown): Promise<VisitorAnswer> {
    return request(this.base + route, { method: 'POST', from: this.from, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  /** A form post, as a browser without scripts sends it. */
  postForm(route: string, fields: Record<string, string>): Promise<VisitorAnswer> {
    return request(this.base + route, {
      method: 'POST',
      from: this.from,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

let next = 10;
/** A visitor from a loopback /24 no other visitor of this test run uses. */
export function newVisitor(base: string): Visitor {
  next++;
  return new Visitor(base, `127.${Math.floor(next / 250)}.${(next % 250) + 2}.2`);
}
