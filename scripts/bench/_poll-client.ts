// The save benchmark's poller: HTTP/1.1 GETs over one kept-alive socket, reading only what a
// poll needs (status, ETag, a Content-Length body). Polling three pages every 3 ms through
// `fetch` spent about as much CPU as the builder's pass it was timing, on the same two cores;
// this client spends a fraction of that, so the figure is the server's, not the poller's.
import net from 'node:net';

export interface PollAnswer {
  status: number;
  etag: string | null;
  body: Buffer;
}

export class PollClient {
  private socket: net.Socket | null = null;
  private buffered = Buffer.alloc(0);
  private waiting: { resolve: (a: PollAnswer) => void; reject: (e: Error) => void } | null = null;

  constructor(private readonly port: number) {}

  /** GET `target` (a path), revalidating with `etag` when given. One request at a time. */
  async get(target: string, etag: string | null): Promise<PollAnswer> {
    if (this.waiting) throw new Error('one request at a time on a poll client');
    const socket = this.socket ?? (await this.connect());
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${etag ? `If-None-Match: ${etag}\r\n` : ''}\r\n`);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private connect(): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(this.port, '127.0.0.1', () => resolve(socket));
      socket.setNoDelay(true);
      socket.on('error', (err) => {
        this.fail(err);
        reject(err);
      });
      socket.on('close', () => {
        this.socket = null;
        this.fail(new Error('the server closed the poll connection'));
      });
      socket.on('data', (chunk) => {
        this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
        this.answer();
      });
      this.socket = socket;
    });
  }

  private fail(err: Error): void {
    const w = this.waiting;
    this.waiting = null;
    this.buffered = Buffer.alloc(0);
    w?.reject(err);
  }

  /** Hands over a whole response once it is in. */
  private answer(): void {
    if (!this.waiting) return;
    const end = this.buffered.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buffered.subarray(0, end).toString('latin1');
    if (/\r\ntransfer-encoding:/i.test(head)) return this.fail(new Error('the poll client reads Content-Length bodies only'));
    const status = Number(head.slice(9, 12));
    const length = status === 304 ? 0 : Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buffered.length < end + 4 + length) return;
    const body = this.buffered.subarray(end + 4, end + 4 + length);
    this.buffered = this.buffered.subarray(end + 4 + length);
    const w = this.waiting;
    this.waiting = null;
    w.resolve({ status, etag: /\r\netag: *([^\r]+)/i.exec(head)?.[1] ?? null, body });
  }
}
