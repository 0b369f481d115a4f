import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on a loopback port that pipes every connection to one target port, and can be
 * switched to another: the stand-in for a Kubernetes Service whose endpoint moves to the
 * promoted database. Switching closes the connections to the old target (as the old endpoint's
 * pod going away would) and sends new ones to the new target.
 */
export class SwitchableProxy {
  private readonly pairs = new Set<[Socket, Socket]>();

  private constructor(
    private readonly server: Server,
    private target: number,
  ) {
    server.on('connection', (client) => this.pipe(client));
  }

  static async start(target: number): Promise<SwitchableProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new SwitchableProxy(server, target);
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  /** Sends new connections to `target` and closes those to the previous one. */
  switchTo(target: number): void {
    this.target = target;
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  async close(): Promise<void> {
    this.switchTo(this.target);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private pipe(client: Socket): void {
    const upstream = connect({ port: this.target, host: '127.0.0.1' });
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
