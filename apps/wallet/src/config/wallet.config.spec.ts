import { ConfigError, loadConfig } from '@wp/config';
import { walletConfigSchema } from './wallet.config.js';

const base = {
  JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----',
  WALLET_TRANSFER_CODE_SECRET: 'x'.repeat(32),
};

describe('wallet configuration', () => {
  it('seeds CREDITS and USD with both conversion directions by default', () => {
    const config = loadConfig(walletConfigSchema, base);
    expect(config.WALLET_ASSETS).toEqual(['CREDITS', 'USD']);
    expect(config.WALLET_CONVERSION_RATES).toEqual([
      { from: 'USD', to: 'CREDITS', rate: '100' },
      { from: 'CREDITS', to: 'USD', rate: '0.01' },
    ]);
    expect(config.WALLET_TRANSFER_CODE_TTL_SECONDS).toBe(600);
    expect(config.WALLET_TRANSFER_MAX_ATTEMPTS).toBe(5);
    expect(config.WALLET_MOVE_BATCH_MAX).toBe(32);
    expect(config.WALLET_LEDGER_CONCURRENCY).toBe(2);
  });

  it.each([
    ['WALLET_CONVERSION_RATES', 'USD:CREDITS'],
    ['WALLET_CONVERSION_RATES', 'USD:USD=1'],
    ['WALLET_CONVERSION_RATES', 'USD:CREDITS=-1'],
    ['WALLET_CONVERSION_RATES', 'USD:EUR=2'],
    ['WALLET_ASSETS', 'usd'],
    ['WALLET_ASSETS', 'USD,EUR'],
    ['WALLET_TRANSFER_CODE_SECRET', 'short'],
    ['WALLET_MOVE_BATCH_MAX', '65'],
    ['WALLET_LEDGER_CONCURRENCY', '0'],
  ])('refuses %s=%s at boot', (name, value) => {
    expect(() => loadConfig(walletConfigSchema, { ...base, [name]: value })).toThrow(ConfigError);
  });

  it.each(['production', 'development'])(
    'requires the transfer code secret when NODE_ENV=%s (replicas share it)',
    (nodeEnv) => {
      const { WALLET_TRANSFER_CODE_SECRET: _omitted, ...without } = base;
      expect(() => loadConfig(walletConfigSchema, { ...without, NODE_ENV: nodeEnv })).toThrow(
        /WALLET_TRANSFER_CODE_SECRET/,
      );
      const config = loadConfig(walletConfigSchema, { ...base, NODE_ENV: nodeEnv });
      expect(config.WALLET_TRANSFER_CODE_SECRET).toBe('x'.repeat(32));
    },
  );

  it('lets a test process go without it (a random per-process key)', () => {
    const { WALLET_TRANSFER_CODE_SECRET: _omitted, ...without } = base;
    const config = loadConfig(walletConfigSchema, { ...without, NODE_ENV: 'test' });
    expect(config.WALLET_TRANSFER_CODE_SECRET).toBeUndefined();
  });
});
