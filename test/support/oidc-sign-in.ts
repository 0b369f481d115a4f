import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from 'playwright-core';

const PROVIDER_SCRIPT = join(__dirname, 'oidc-test-provider.mjs');
const NODE = join(__dirname, '..', '..', 'node_modules', '.bin', 'node');

/** Claims of a test account at the provider, by its login. */
export type ProviderAccounts = Record<
  string,
  { email?: string; email_verified?: boolean; name?: string }
>;

/**
 * A real OpenID provider (`oidc-provider`, test/support/oidc-test-provider.mjs) in a child
 * process on a free loopback port, with one confidential client and the given accounts.
 */
export class TestOidcProvider {
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly issuer: string,
  ) {}

  static async start(options: {
    clientId: string;
    clientSecret: string;
    redirectUris: string[];
    accounts: ProviderAccounts;
  }): Promise<TestOidcProvider> {
    const child = spawn(NODE, [PROVIDER_SCRIPT, JSON.stringify(options)], { stdio: 'pipe' });
    child.stderr.resume();
    const line = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`provider exited with ${code}`)));
    });
    return new TestOidcProvider(child, (JSON.parse(line) as { issuer: string }).issuer);
  }

  /** Switches the provider's faults (oidc-test-provider.mjs). */
  async faults(faults: { wrongKeys?: boolean; nonce?: string | null }): Promise<void> {
    const res = await fetch(`${this.issuer}/__test/faults`, {
      method: 'POST',
      body: JSON.stringify(faults),
    });
    if (res.status !== 204) throw new Error(`faults: ${res.status}`);
  }

  stop(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}

/** PKCE (RFC 7636 S256) and state as a client application makes them. */
export function clientPkce(): { verifier: string; challenge: string; state: string } {
  const verifier = randomBytes(32).toString('base64url');
  return {
    verifier,
    challenge: createHash('sha256').update(verifier).digest('base64url'),
    state: randomBytes(16).toString('base64url'),
  };
}

/**
 * A tiny client application in the browser: `/` shows a "Sign in" link to the URL given in
 * `?go=`, `/cb` is its redirect URI (shows what it received).
 */
export class ClientPage {
  private constructor(
    private readonly server: Server,
    readonly base: string,
  ) {}

  static async start(): Promise<ClientPage> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      res.setHeader('content-type', 'text/html; charset=utf-8');
      if (url.pathname === '/cb') {
        res.end(`<h1 id="done">${url.searchParams.has('code') ? 'signed in' : 'refused'}</h1>`);
        return;
      }
      const go = (url.searchParams.get('go') ?? '').replace(/"/g, '&quot;');
      res.end(`<a id="signin" href="${go}">Sign in with the test provider</a>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return new ClientPage(server, `http://127.0.0.1:${port}`);
  }

  get redirectUri(): string {
    return `${this.base}/cb`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** What the client's redirect URI received, and the platform callback URL the browser used. */
export interface BrowserOutcome {
  params: URLSearchParams;
  callbackUrl: string | null;
}

/** Debian's Chromium, driven by playwright-core. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Runs the whole redirect dance in a fresh browser context: the client page's link, the
 * provider's login (as `login`) and consent pages, back to the client's redirect URI.
 */
export async function signInWithBrowser(
  browser: Browser,
  client: ClientPage,
  authorizeUrl: string,
  login: string,
): Promise<BrowserOutcome> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    let callbackUrl: string | null = null;
    page.on('request', (request) => {
      if (request.url().includes('/v1/api/oauth/callback')) callbackUrl = request.url();
    });
    await page.goto(`${client.base}/?go=${encodeURIComponent(authorizeUrl)}`);
    await page.click('#signin');
    await finishAtProvider(page, client, login);
    return { params: new URL(page.url()).searchParams, callbackUrl };
  } finally {
    await context.close();
  }
}

async function finishAtProvider(page: Page, client: ClientPage, login: string): Promise<void> {
  for (let step = 0; step < 6; step++) {
    await page.waitForLoadState('load');
    if (page.url().startsWith(client.redirectUri)) return;
    const before = page.url();
    if ((await page.locator('input[name=login]').count()) > 0) {
      await page.fill('input[name=login]', login);
      await page.fill('input[name=password]', 'any password');
    }
    if ((await page.locator('button[type=submit]').count()) === 0) {
      throw new Error(`stuck at ${page.url()}: ${(await page.content()).slice(0, 500)}`);
    }
    await page.click('button[type=submit]');
    await page.waitForURL((url) => url.href !== before);
  }
  throw new Error(`never reached the client, at ${page.url()}`);
}
