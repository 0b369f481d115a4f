import type { DynamicModule, ValueProvider } from '@nestjs/common';
import { PARAMS_PROVIDER_TOKEN, type Params } from 'nestjs-pino';
import { chooseLogFormat, isProbe, QUIET_CONTEXTS } from './log-format.js';
import { LoggingModule, type LoggingOptions } from './logging.module.js';

describe('chooseLogFormat (docs/architecture.md § Logs)', () => {
  it('is pretty in a terminal outside production when nothing is asked', () => {
    expect(chooseLogFormat({ isTTY: true })).toBe('pretty');
    expect(chooseLogFormat({ isTTY: true, requested: 'auto', nodeEnv: 'development' })).toBe(
      'pretty',
    );
  });

  it('is JSON when the output is not a terminal (files, pipes, collectors)', () => {
    expect(chooseLogFormat({ isTTY: false })).toBe('json');
    expect(chooseLogFormat({ isTTY: false, requested: 'auto' })).toBe('json');
  });

  it('is JSON in production, whatever is asked', () => {
    expect(chooseLogFormat({ isTTY: true, nodeEnv: 'production' })).toBe('json');
    expect(chooseLogFormat({ isTTY: true, nodeEnv: 'production', requested: 'pretty' })).toBe(
      'json',
    );
  });

  it('follows LOG_FORMAT outside production', () => {
    expect(chooseLogFormat({ isTTY: true, requested: 'json' })).toBe('json');
    expect(chooseLogFormat({ isTTY: false, requested: 'pretty' })).toBe('pretty');
  });

  it('is JSON when pino-pretty is not installed', () => {
    expect(chooseLogFormat({ isTTY: true, requested: 'pretty', prettyAvailable: false })).toBe(
      'json',
    );
  });

  it('knows the probe routes that pretty logs leave out', () => {
    expect(['/health/live', '/health/ready', '/metrics'].map(isProbe)).toEqual([true, true, true]);
    expect(['/v1/api/users', '/healthy', undefined].map(isProbe)).toEqual([false, false, false]);
  });
});

describe('LoggingModule formats', () => {
  function pinoHttp(options: Partial<LoggingOptions>): Record<string, any> {
    const [loggerModule] = LoggingModule.forRoot({ service: 'test', level: 'info', ...options })
      .imports as [DynamicModule];
    const provider = loggerModule.providers?.find(
      (p): p is ValueProvider<Params> =>
        typeof p === 'object' && 'provide' in p && p.provide === PARAMS_PROVIDER_TOKEN,
    );
    return provider!.useValue.pinoHttp as Record<string, any>;
  }

  it('writes JSON by default (jest is not a terminal): no transport, the usual request line', () => {
    const params = pinoHttp({});
    expect(params['transport']).toBeUndefined();
    expect(params['customSuccessMessage']).toBeUndefined();
    expect(params['autoLogging']).toBe(true);
  });

  it('logs the status of a response, not its headers', () => {
    const res = { statusCode: 201, getHeaders: () => ({ 'set-cookie': 'x' }), headers: {} };
    expect(pinoHttp({}).serializers.res(res)).toEqual({ statusCode: 201 });
  });

  it('with pretty: pino-pretty, one readable line per request, probes and route chatter left out', () => {
    const params = pinoHttp({ format: 'pretty' });
    expect(params['transport']).toMatchObject({ target: 'pino-pretty' });
    expect(
      params['customSuccessMessage'](
        { method: 'GET', url: '/v1/api/users' },
        { statusCode: 200 },
        3.4,
      ),
    ).toBe('GET /v1/api/users 200 3ms');
    expect(params['autoLogging'].ignore({ url: '/health/live' })).toBe(true);
    expect(params['autoLogging'].ignore({ url: '/', originalUrl: '/metrics' })).toBe(true);
    expect(params['customLogLevel']({ url: '/health/ready' }, { statusCode: 200 })).toBe('silent');
    expect(params['customLogLevel']({ url: '/v1/api/users' }, { statusCode: 201 })).toBe('info');
    expect(params['customLogLevel']({ url: '/v1/api/users' }, { statusCode: 404 })).toBe('warn');
    expect(params['customLogLevel']({ url: '/v1/api/users' }, { statusCode: 500 })).toBe('error');
    expect(params['autoLogging'].ignore({ url: '/v1/api/users' })).toBe(false);

    const written: unknown[][] = [];
    const method = (...args: unknown[]) => written.push(args);
    for (const context of QUIET_CONTEXTS) {
      params['hooks'].logMethod([{ context }, 'Mapped {/x, GET} route'], method, 30);
    }
    params['hooks'].logMethod([{ context: 'NestApplication' }, 'started'], method, 30);
    params['hooks'].logMethod(['plain message'], method, 30);
    expect(written).toEqual([[{ context: 'NestApplication' }, 'started'], ['plain message']]);
  });

  it('stays JSON with pretty asked in production', () => {
    expect(pinoHttp({ format: 'pretty', nodeEnv: 'production' })['transport']).toBeUndefined();
  });

  it('drops request lines when asked (LOG_REQUESTS=false)', () => {
    expect(pinoHttp({ format: 'pretty', logRequests: false })['autoLogging']).toBe(false);
  });
});
