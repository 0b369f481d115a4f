import { createSocket, type Socket } from 'node:dgram';

const TXT = 16;

/**
 * A DNS server on 127.0.0.1 (UDP, a random port) that answers TXT questions from a table the
 * test fills, for domain verification (docs/org.md § Single sign-on for an organization). Names
 * absent from the table answer NXDOMAIN; other question types answer no records. The platform
 * reaches it through `DNS_RESOLVER_SERVERS=127.0.0.1:<port>` (node:dns, c-ares).
 */
export class DnsTxtServer {
  private readonly records = new Map<string, string[]>();

  private constructor(
    private readonly socket: Socket,
    readonly port: number,
  ) {}

  static async start(): Promise<DnsTxtServer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => resolve());
    });
    const server = new DnsTxtServer(socket, socket.address().port);
    socket.on('message', (message, peer) => {
      let answer: Buffer | null = null;
      try {
        answer = server.answer(message);
      } catch {
        // A malformed query gets no answer (the resolver times out), as from a real server.
      }
      if (answer) socket.send(answer, peer.port, peer.address);
    });
    return server;
  }

  /** `DNS_RESOLVER_SERVERS` for this server. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Publishes (replaces) the TXT strings of `name`. */
  setTxt(name: string, values: string[]): void {
    this.records.set(name.toLowerCase().replace(/\.$/, ''), values);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  /** The response to one query, or null when it cannot be parsed. */
  private answer(query: Buffer): Buffer | null {
    if (query.length < 12 || query.readUInt16BE(4) !== 1) return null;
    const labels: string[] = [];
    let offset = 12;
    while (offset < query.length && query.readUInt8(offset) !== 0) {
      const length = query.readUInt8(offset);
      labels.push(query.toString('latin1', offset + 1, offset + 1 + length));
      offset += 1 + length;
    }
    offset += 1;
    if (offset + 4 > query.length) return null;
    const type = query.readUInt16BE(offset);
    const question = query.subarray(12, offset + 4);
    const values = this.records.get(labels.join('.').toLowerCase());
    const answers = type === TXT && values ? values.map(txtRecord) : [];
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0);
    // QR, opcode 0, AA, RD copied, RA; RCODE 3 (NXDOMAIN) for an unknown name.
    header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x80 | (values ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    return Buffer.concat([header, question, ...answers]);
  }
}

/** One TXT answer for the question's name (a pointer to offset 12), TTL 0. */
function txtRecord(value: string): Buffer {
  const text = Buffer.from(value, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < text.length || i === 0; i += 255) {
    const chunk = text.subarray(i, i + 255);
    chunks.push(Buffer.from([chunk.length]), chunk);
  }
  const rdata = Buffer.concat(chunks);
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0);
  fixed.writeUInt16BE(TXT, 2);
  fixed.writeUInt16BE(1, 4);
  fixed.writeUInt32BE(0, 6);
  fixed.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([fixed, rdata]);
}
