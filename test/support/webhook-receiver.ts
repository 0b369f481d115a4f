import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got. */
export interface ReceivedWebhook {
  at: number;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The parsed JSON body. */
  event: any;
}

/** What a receiver answers to one request: a status, optional headers, after a delay. */
export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
  body?: string;
}

/**
 * A client's webhook receiver for tests: a real HTTP server on a loopback address (127.0.0.1 by
 * default; 127.0.0.2 when the platform's allow-list names only that) that records every request
 * and answers as told — by default 204, else the next of a queue of answers or a function of the
 * request. {@link verify} checks a request's signature with the `standardwebhooks` library, as
 * a client would.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private answers: ReceiverAnswer[] = [];
  private answerFn?: (request: ReceivedWebhook) => ReceiverAnswer;

  private constructor(
    private readonly server: Server,
    readonly host: string,
  ) {}

  static async start(host = '127.0.0.1'): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server, host);
    server.on('request', (req, res) => void receiver.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `http://<host>:<port><path>` */
  url(path = '/hook'): string {
    return `http://${this.host}:${this.port}${path}`;
  }

  /** The next requests get these answers, in order; then 204 again. */
  answerWith(...answers: ReceiverAnswer[]): void {
    this.answers.push(...answers);
  }

  /** Every request gets `fn(request)` (replaces the queue). */
  answerAlways(fn: (request: ReceivedWebhook) => ReceiverAnswer): void {
    this.answerFn = fn;
  }

  /** Requests of one event type. */
  ofType(type: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.event?.type === type);
  }

  /** Verifies with the standardwebhooks library; returns the payload or throws. */
  static verify(request: ReceivedWebhook, secret: string): unknown {
    return new Webhook(secret).verify(request.body, request.headers);
  }

  /** True when `secret` verifies the request. */
  static verifies(request: ReceivedWebhook, secret: string): boolean {
    try {
      WebhookReceiver.verify(request, secret);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let event: unknown = null;
    try {
      event = JSON.parse(body);
    } catch {
      // recorded as is
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers[name] = value;
    }
    const request: ReceivedWebhook = { at: Date.now(), path: req.url ?? '', headers, body, event };
    this.received.push(request);
    const answer = this.answerFn?.(request) ?? this.answers.shift() ?? { status: 204 };
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (res.destroyed) return;
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body ?? '');
  }
}
