import { Logger } from '@nestjs/common';
import { connect, type NatsConnection } from 'nats';

export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
/** `{ streamReplicas }` of the JetStream streams this service creates. */
export const JETSTREAM_OPTIONS = Symbol('JETSTREAM_OPTIONS');
export interface JetStreamOptions {
  /** `NATS_STREAM_REPLICAS`: `num_replicas` of every stream (1 on a single server). */
  streamReplicas: number;
}

/**
 * Connects to NATS, reconnecting forever after the first connection (a NATS restart never
 * needs a service restart). Fails at boot with a clear message when NATS does not answer.
 */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  const logger = new Logger('Nats');
  try {
    const nc = await connect({
      servers: url.split(','),
      name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      timeout: 5000,
      pingInterval: 10_000,
    });
    void (async () => {
      for await (const status of nc.status()) {
        const type = String(status.type);
        if (type === 'disconnect' || type === 'reconnect') {
          logger.warn(`NATS ${type} (${JSON.stringify(status.data)})`);
        }
      }
    })();
    return nc;
  } catch (error) {
    throw new Error(
      `Cannot connect to NATS at ${url}: ${(error as Error).message}. Is nats-server running with JetStream (-js)?`,
      { cause: error },
    );
  }
}
