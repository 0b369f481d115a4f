import { hash } from '@node-rs/argon2';
import type { AuthConfig } from '../../config/auth.config.js';
import { PasswordHasher } from './password-hasher.js';

jest.mock('@node-rs/argon2', () => ({ hash: jest.fn(), verify: jest.fn() }));

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('PasswordHasher', () => {
  it('runs at most PASSWORD_HASH_CONCURRENCY hashes at once, the rest in arrival order', async () => {
    const finish: ((value: string) => void)[] = [];
    const started: string[] = [];
    jest.mocked(hash).mockImplementation((password) => {
      started.push(String(password));
      return new Promise<string>((resolve) => finish.push(resolve));
    });
    const hasher = new PasswordHasher({ PASSWORD_HASH_CONCURRENCY: 2 } as AuthConfig);
    const results = ['a', 'b', 'c', 'd'].map((p) => hasher.hash(p));
    await flush();
    expect(started).toEqual(['a', 'b']);
    finish[0]('hash-a');
    await flush();
    expect(started).toEqual(['a', 'b', 'c']);
    finish[1]('hash-b');
    finish[2]('hash-c');
    await flush();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    finish[3]('hash-d');
    await expect(Promise.all(results)).resolves.toEqual(['hash-a', 'hash-b', 'hash-c', 'hash-d']);
    expect(hasher.hashes).toBe(4);
  });
});
