// A name server on loopback for tests (UDP, A and AAAA questions only): names under
// `good.test` answer 127.0.0.1 at once; names under `slow.test` are never answered, as a
// name server that stalls; any other name is NXDOMAIN. Every question is remembered.
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

export class TestNameServer {
  readonly questions: string[] = [];
  private socket = dgram.createSocket('udp4');
  address = '';

  async start(): Promise<void> {
    this.socket.on('message', (query, from) => this.answer(query, from));
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', () => resolve()));
    this.address = `127.0.0.1:${(this.socket.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private answer(query: Buffer, from: dgram.RemoteInfo): void {
    // The question: labels from byte 12, then its type and class.
    const labels: string[] = [];
    let at = 12;
    while (at < query.length && query[at]! > 0) {
      labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString('ascii'));
      at += 1 + query[at]!;
    }
    const end = at + 5;
    if (end > query.length) return;
    const name = labels.join('.').toLowerCase();
    const type = query.readUInt16BE(at + 1);
    this.questions.push(`${type === 1 ? 'A' : type === 28 ? 'AAAA' : type} ${name}`);
    if (name.endsWith('.slow.test')) return;
    const good = name.endsWith('.good.test');
    const withAddress = good && type === 1;
    const head = Buffer.alloc(12);
    query.copy(head, 0, 0, 2);
    // A response, recursion desired and available; NXDOMAIN for a name that is not ours.
    head.writeUInt16BE(good ? 0x8180 : 0x8183, 2);
    head.writeUInt16BE(1, 4);
    head.writeUInt16BE(withAddress ? 1 : 0, 6);
    const question = query.subarray(12, end);
    const answer = withAddress ? Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1]) : Buffer.alloc(0);
    this.socket.send(Buffer.concat([head, question, answer]), from.port, from.address);
  }
}
