import { z } from 'zod';
import { ConfigError, loadConfig } from './load-config.js';
import { env } from './fields.js';
import { platformSchema } from './platform.config.js';

describe('loadConfig', () => {
  const schema = z.object({
    AUTH_PORT: env.port(8081),
    FLAG: env.bool(false),
    SOME_SECRET: z.string(),
  });

  it('applies defaults and coerces values', () => {
    expect(loadConfig(schema, { SOME_SECRET: 's', FLAG: 'true' })).toEqual({
      AUTH_PORT: 8081,
      FLAG: true,
      SOME_SECRET: 's',
    });
  });

  it('names every bad variable on one line and hides secret-looking values', () => {
    let error: unknown;
    try {
      loadConfig(schema, { AUTH_PORT: 'abc', FLAG: 'yes' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain('AUTH_PORT: expected an integer 1-65535 (got "abc")');
    expect(message).toContain('FLAG: expected true or false (got "yes")');
    expect(message).toContain('SOME_SECRET');
    expect(message).toContain('(missing)');
  });

  it('takes NATS_URL as the nodes of a cluster, comma separated, each checked as a URL', () => {
    const nats = platformSchema.shape.NATS_URL;
    const cluster = 'nats://127.0.0.1:4222, nats://127.0.0.1:4223,nats://127.0.0.1:4224';
    expect(nats.parse(cluster)).toBe(
      'nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224',
    );
    expect(nats.parse(undefined)).toBe('nats://127.0.0.1:4222');
    expect(nats.safeParse('nats://127.0.0.1:4222,http://127.0.0.1:4223').success).toBe(false);
  });
});
