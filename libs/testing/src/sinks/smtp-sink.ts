import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { Mailbox } from './mailbox.js';
import { parseMessage, type ParsedMessage } from './mime.js';

/** One message as the SMTP sink received it. */
export interface ReceivedMail extends ParsedMessage {
  /** Envelope sender. */
  from: string;
  /** Envelope recipients, lower case. */
  to: string[];
  /** The message exactly as transmitted (after dot-unstuffing). */
  raw: string;
}

/**
 * A real SMTP server on a random loopback port (the `smtp-server` package) that keeps every
 * message, so end-to-end tests can read mails the services send. Pass `sink.url` as `SMTP_URL`.
 *
 * ```ts
 * const smtp = await SmtpSink.start();
 * const mail = await smtp.nextMail('ada@example.com');
 * expect(mail.text).toMatch(/\d{6}/);
 * ```
 */
export class SmtpSink {
  private readonly mailbox = new Mailbox<ReceivedMail>();
  private rejections: { count: number; code: number } = { count: 0, code: 451 };

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpSink> {
    const holder: { sink?: SmtpSink } = {};
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        void holder.sink!.receive(stream, session).then(
          () => callback(),
          (error: Error) => callback(error),
        );
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const sink = new SmtpSink(server, (server.server.address() as AddressInfo).port);
    holder.sink = sink;
    return sink;
  }

  /** `smtp://127.0.0.1:<port>` */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Every message received so far. */
  get messages(): readonly ReceivedMail[] {
    return this.mailbox.items;
  }

  /** Messages received so far for one address (case-insensitive). */
  mailsTo(address: string): ReceivedMail[] {
    const to = address.toLowerCase();
    return this.mailbox.all((m) => m.to.includes(to));
  }

  /** The oldest not yet awaited message to `address`, or the next one to arrive. */
  nextMail(address: string, { timeoutMs = 10_000 } = {}): Promise<ReceivedMail> {
    const to = address.toLowerCase();
    return this.mailbox.next((m) => m.to.includes(to), `a mail to ${address}`, timeoutMs);
  }

  /**
   * Refuses the next `count` messages with SMTP `code` (451: try later; 550: permanent), to
   * test retries and give-up rules.
   */
  rejectNext(count: number, code = 451): void {
    this.rejections = { count, code };
  }

  /** Refusals still to come from {@link rejectNext}. */
  get rejectionsLeft(): number {
    return this.rejections.count;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    if (this.rejections.count > 0) {
      this.rejections.count--;
      const error = new Error('refused by the test sink') as Error & { responseCode: number };
      error.responseCode = this.rejections.code;
      throw error;
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    const envelope = session.envelope;
    this.mailbox.push({
      ...parseMessage(raw),
      from: envelope.mailFrom ? envelope.mailFrom.address : '',
      to: envelope.rcptTo.map((r) => r.address.toLowerCase()),
      raw,
    });
  }
}
