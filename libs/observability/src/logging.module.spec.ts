import { Writable } from 'node:stream';
import pino from 'pino';
import type { DynamicModule, ValueProvider } from '@nestjs/common';
import { PARAMS_PROVIDER_TOKEN, type Params } from 'nestjs-pino';
import { LoggingModule, REDACTED_PATHS, logsInfo } from './logging.module.js';

describe('log redaction (docs/architecture.md § Operations)', () => {
  it('removes credentials from headers and secrets from logged objects', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
    logger.info({
      req: {
        headers: {
          authorization: 'Bearer eyJ.secret.token',
          'api-key': 'wpk_live_key',
          'admin-access': 'adm_secret',
          'user-agent': 'curl',
        },
      },
      body: { password: 'hunter22', code: '123456', refresh_token: 'rt_abc', name: 'Acme' },
    });
    const line = lines.join('');
    for (const secret of [
      'eyJ.secret.token',
      'wpk_live_key',
      'adm_secret',
      'hunter22',
      '123456',
      'rt_abc',
    ]) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain('curl');
    expect(line).toContain('Acme');
  });

  it('removes two-factor secrets: recovery codes, challenge tokens, TOTP secrets and their QR', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
    logger.info({
      body: { challenge_token: 'mfa_sentinel', recovery_code: 'abcde-fghjk', code: '654321' },
      attributes: {
        secret: 'JBSWY3DPEHPK3PXP',
        otpauthUri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP',
        qrCodeSvg: '<svg>qr</svg>',
        qrCodeDataUrl: 'data:image/svg+xml;base64,qr',
        recoveryCodes: ['zzzzz-yyyyy'],
      },
    });
    const line = lines.join('');
    for (const secret of ['mfa_sentinel', 'abcde-fghjk', '654321', 'JBSWY3DPEHPK3PXP', 'zzzzz']) {
      expect(line).not.toContain(secret);
    }
    expect(line).not.toContain('<svg>');
  });
});

describe('request lines follow the log level', () => {
  it('keeps them at info and below, drops their bookkeeping above', () => {
    expect(['trace', 'debug', 'info'].map(logsInfo)).toEqual([true, true, true]);
    expect(['warn', 'error', 'fatal', 'silent'].map(logsInfo)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('per-request middleware', () => {
  /** nestjs-pino's parameters as LoggingModule hands them over. */
  function pinoParams(level: string): Params {
    const [loggerModule] = LoggingModule.forRoot({ service: 'test', level }).imports as [
      DynamicModule,
    ];
    const provider = loggerModule.providers?.find(
      (p): p is ValueProvider<Params> =>
        typeof p === 'object' && 'provide' in p && p.provide === PARAMS_PROVIDER_TOKEN,
    );
    if (!provider) throw new Error('nestjs-pino parameters not found');
    return provider.useValue;
  }

  it('is bound to every route when request lines are written', () => {
    expect(pinoParams('info').forRoutes).toHaveLength(1);
  });

  it('is not registered at all above info, where it could only cost CPU', () => {
    expect(pinoParams('warn').forRoutes).toEqual([]);
  });
});
