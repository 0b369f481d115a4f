import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Mailbox } from './mailbox.js';

/** One request as the HTTP sink received it; `body` is parsed JSON when it was JSON. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** The body an SMS webhook receives (docs/architecture.md § Mail and SMS). */
export interface SmsMessage {
  to: string;
  body: string;
}

/**
 * An HTTP server on a random loopback port that records every request and answers 200 `{}`
 * (or a chosen failure status), e.g. the SMS webhook: pass `sink.url('/sms')` as
 * `SMS_WEBHOOK_URL` and read messages with `nextSms(to)`.
 */
export class HttpSink {
  private readonly mailbox = new Mailbox<ReceivedRequest>();
  private failures: { count: number; status: number } = { count: 0, status: 503 };

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<HttpSink> {
    const holder: { sink?: HttpSink } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: keep the text
        }
        if (holder.sink!.failures.count > 0) {
          holder.sink!.failures.count--;
          res.writeHead(holder.sink!.failures.status, { 'content-type': 'application/json' });
          res.end('{"error":"refused by the test sink"}');
          return;
        }
        holder.sink!.mailbox.push({
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body,
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const sink = new HttpSink(server, (server.address() as AddressInfo).port);
    holder.sink = sink;
    return sink;
  }

  /** `http://127.0.0.1:<port><path>` */
  url(path = '/'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Every request accepted so far (refused ones are not recorded). */
  get requests(): readonly ReceivedRequest[] {
    return this.mailbox.items;
  }

  /** The oldest not yet awaited request matching, or the next one to arrive. */
  nextRequest(
    match: (request: ReceivedRequest) => boolean = () => true,
    { timeoutMs = 10_000, what = 'a request' } = {},
  ): Promise<ReceivedRequest> {
    return this.mailbox.next(match, what, timeoutMs);
  }

  /** The next SMS webhook call (`{"to","body"}`) for a number. */
  async nextSms(to: string, { timeoutMs = 10_000 } = {}): Promise<SmsMessage> {
    const request = await this.nextRequest((r) => (r.body as Partial<SmsMessage>)?.to === to, {
      timeoutMs,
      what: `an SMS to ${to}`,
    });
    return request.body as SmsMessage;
  }

  /** SMS webhook calls recorded so far for a number. */
  smsTo(to: string): SmsMessage[] {
    return this.mailbox
      .all((r) => (r.body as Partial<SmsMessage>)?.to === to)
      .map((r) => r.body as SmsMessage);
  }

  /** Answers the next `count` requests with `status` (not recorded), to test retries. */
  failNext(count: number, status = 503): void {
    this.failures = { count, status };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
