import { PasswordHasher } from '../../src/modules/passwords/password-hasher.js';
import { startAuthTestApp, type AuthTestContext } from '../support/auth-test-app.js';
import { newEmail, registerActive } from '../support/flows.js';

/**
 * docs/api.md § Limits and docs/api.md § Errors (429 for login attempts over the per-username
 * limit), with docs/architecture.md § Decisions where the contract is silent defaults: login 5 per
 * username per 15 min, registration 5 per username per hour, validation 30 per address per minute;
 * 429 carries Retry-After.
 */
describe('auth: rate limits (login, registration, validation)', () => {
  let ctx: AuthTestContext;

  beforeAll(async () => {
    ctx = await startAuthTestApp({ AUTH_EMAIL_ACTIVATION_REQUIRED: 'false' });
  });
  afterAll(() => ctx.close());

  const loginAs = (username: string, password: string) =>
    ctx.post('/v1/api/oauth/token', { username, password });

  it('answers 429 with Retry-After after 5 failed logins for a username, even for the right password', async () => {
    const user = await registerActive(ctx);
    for (let i = 0; i < 5; i++) {
      expect((await loginAs(user.email, 'wrong password')).statusCode).toBe(401);
    }
    const limited = await loginAs(user.email, user.password);
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(limited.json().errors[0]).toMatchObject({
      status: '429',
      code: 'RATE_LIMITED',
      meta: { limit: 'login', retryAfter },
    });
  });

  it('counts the limit per username: another account still logs in', async () => {
    const locked = await registerActive(ctx);
    const free = await registerActive(ctx);
    for (let i = 0; i < 6; i++) await loginAs(locked.email, 'wrong password');
    expect((await loginAs(locked.email, locked.password)).statusCode).toBe(429);
    expect((await loginAs(free.email, free.password)).statusCode).toBe(200);
  });

  it('shares one budget between spellings of the same email', async () => {
    const user = await registerActive(ctx);
    const variants = [user.email.toUpperCase(), ` ${user.email}`, user.email];
    for (let i = 0; i < 5; i++) await loginAs(variants[i % 3], 'wrong password');
    expect((await loginAs(user.email.toUpperCase(), user.password)).statusCode).toBe(429);
  });

  it('resets the failure count on a successful login', async () => {
    const user = await registerActive(ctx);
    for (let i = 0; i < 4; i++) {
      expect((await loginAs(user.email, 'wrong password')).statusCode).toBe(401);
    }
    expect((await loginAs(user.email, user.password)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await loginAs(user.email, 'wrong password')).statusCode).toBe(401);
    }
    expect((await loginAs(user.email, 'wrong password')).statusCode).toBe(429);
  });

  it('limits unknown usernames the same way (no hint that the account does not exist)', async () => {
    const ghost = newEmail('ghost');
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await loginAs(ghost, 'whatever pw')).statusCode);
    expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('runs at most 5 argon2 verifications for 100 parallel wrong passwords', async () => {
    const user = await registerActive(ctx);
    const hasher = ctx.app.get(PasswordHasher);
    const before = hasher.verifications;
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => loginAs(user.email, 'wrong password')),
    );
    const verified = hasher.verifications - before;
    expect(verified).toBeLessThanOrEqual(5);
    expect(verified).toBeGreaterThan(0);
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(verified);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - verified);
  });

  it('limits registration per username: the 6th attempt within the hour is 429', async () => {
    const email = newEmail('reg');
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await ctx.post('/v1/api/users', {
        username: i % 2 ? email.toUpperCase() : email,
        password: 'correct horse battery',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 409, 409, 409, 409, 429]);
  });

  it('answers a duplicate registration after the same argon2 work as a fresh one', async () => {
    const hasher = ctx.app.get(PasswordHasher);
    const email = newEmail('dup');
    let before = hasher.hashes;
    const fresh = await ctx.post('/v1/api/users', { username: email, password: 'pw-12345678' });
    expect(fresh.statusCode).toBe(200);
    expect(hasher.hashes - before).toBe(1);
    before = hasher.hashes;
    const duplicate = await ctx.post('/v1/api/users', {
      username: email,
      password: 'pw-12345678',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().errors[0].code).toBe('USERNAME_TAKEN');
    expect(hasher.hashes - before).toBe(1);
  });

  it('limits validation requests per client address: 30 per minute, then 429', async () => {
    const from = (address: string, url: string) => ctx.get(url, { 'x-forwarded-for': address });
    for (let i = 0; i < 30; i++) {
      const url =
        i % 2
          ? `/v1/api/users/validate/email?email=${encodeURIComponent(newEmail())}`
          : '/v1/api/users/validate/phone?phoneNumber=4155550100&countryCode=1';
      expect((await from('203.0.113.7', url)).statusCode).toBe(200);
    }
    const limited = await from('203.0.113.7', '/v1/api/users/validate/email?email=a%40b.co');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().errors[0].meta.limit).toBe('validation');
    const other = await from('203.0.113.8', '/v1/api/users/validate/email?email=a%40b.co');
    expect(other.statusCode).toBe(200);
  });
});
