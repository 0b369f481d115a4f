import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';

/** Debian's chromium (.ci/run installs it); `CHROMIUM_PATH` points elsewhere. */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const PAGE =
  '<!doctype html><html><head><title>passkeys</title></head><body>passkeys</body></html>';
const FORWARDED = ['api-key', 'authorization', 'content-type'];

/** The parts of the browser's WebAuthn API the page uses (W3C WebAuthn Level 3 JSON helpers). */
interface WebAuthnWindow {
  PublicKeyCredential: {
    parseCreationOptionsFromJSON(options: unknown): unknown;
    parseRequestOptionsFromJSON(options: unknown): unknown;
  };
  navigator: {
    credentials: {
      create(options: { publicKey: unknown }): Promise<{ toJSON(): unknown }>;
      get(options: { publicKey: unknown }): Promise<{ toJSON(): unknown }>;
    };
  };
}

/** What the page's `fetch` answered. */
export interface PageAnswer {
  status: number;
  body: any;
}

/**
 * A real browser for WebAuthn ceremonies (docs/auth.md § Passkeys, "Tests"): headless Chromium
 * with the DevTools virtual authenticator (CTAP2, internal transport, resident keys, user
 * verification), on a tiny page served at `http://localhost:<port>` (a secure context) whose
 * server forwards `/v1/…` to the platform's gateway — so the page calls the API from its own
 * origin, as a web client on the relying party's origin does.
 */
export class PasskeyBrowser {
  private server!: Server;
  private browser!: Browser;
  page!: Page;
  cdp!: CDPSession;
  authenticatorId = '';
  /** `http://localhost:<port>`, the origin of every ceremony. */
  origin = '';
  /** Where `/v1/…` is forwarded; set once the platform runs. */
  upstream = '';

  /** Starts the page server only (its origin is needed to configure the platform). */
  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      if (!req.url?.startsWith('/v1/')) {
        res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const name of FORWARDED) {
          const value = req.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        fetch(`${this.upstream}${req.url}`, { method: req.method, headers, body })
          .then(async (answer) => {
            res.writeHead(answer.status, {
              'content-type': answer.headers.get('content-type') ?? 'application/json',
            });
            res.end(Buffer.from(await answer.arrayBuffer()));
          })
          .catch(() => res.writeHead(502).end());
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.origin = `http://localhost:${(this.server.address() as { port: number }).port}`;
  }

  /** Launches Chromium, opens the page and adds the virtual authenticator. */
  async open(upstream: string): Promise<void> {
    this.upstream = upstream;
    this.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    const context = await this.browser.newContext();
    this.page = await context.newPage();
    await this.page.goto(`${this.origin}/`);
    this.cdp = await context.newCDPSession(this.page);
    await this.cdp.send('WebAuthn.enable');
    const added = await this.cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    this.authenticatorId = added.authenticatorId;
  }

  /** The virtual authenticator's credentials (id base64, signCount). */
  async credentials(): Promise<{ credentialId: string; signCount: number }[]> {
    const { credentials } = await this.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: this.authenticatorId,
    });
    return credentials;
  }

  /**
   * Registration in the page: options → `navigator.credentials.create()` → `POST
   * /users/me/passkeys`. Answers the registration's answer (or the options' when they failed).
   */
  register(apiKey: string, token: string, name: string): Promise<PageAnswer> {
    return this.page.evaluate(
      async ({ apiKey, token, name }) => {
        // The browser's WebAuthn API (the test project compiles without the DOM library).
        const web = globalThis as unknown as WebAuthnWindow;
        const headers = {
          'api-key': apiKey,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        };
        const call = async (path: string, body: unknown): Promise<PageAnswer> => {
          const res = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
          return { status: res.status, body: await res.json() };
        };
        const options = await call('/v1/api/users/me/passkeys/options', {});
        if (options.status !== 200) return options;
        const publicKey = web.PublicKeyCredential.parseCreationOptionsFromJSON(
          options.body.data.attributes.publicKey,
        );
        const credential = await web.navigator.credentials.create({ publicKey });
        return call('/v1/api/users/me/passkeys', { credential: credential.toJSON(), name });
      },
      { apiKey, token, name },
    );
  }

  /**
   * Usernameless sign-in in the page: options → `navigator.credentials.get()` → `POST
   * /oauth/token/passkey`. Also answers the assertion sent, to replay it.
   */
  signIn(apiKey: string): Promise<PageAnswer & { credential?: unknown }> {
    return this.page.evaluate(async (apiKey) => {
      const web = globalThis as unknown as WebAuthnWindow;
      const headers = { 'api-key': apiKey, 'content-type': 'application/json' };
      const call = async (path: string, body: unknown): Promise<PageAnswer> => {
        const res = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
        return { status: res.status, body: await res.json() };
      };
      const options = await call('/v1/api/oauth/passkey/options', {});
      if (options.status !== 200) return options;
      const publicKey = web.PublicKeyCredential.parseRequestOptionsFromJSON(
        options.body.data.attributes.publicKey,
      );
      const credential = (await web.navigator.credentials.get({ publicKey })).toJSON();
      return { ...(await call('/v1/api/oauth/token/passkey', { credential })), credential };
    }, apiKey);
  }

  async close(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    if (this.server?.listening) {
      this.server.closeAllConnections();
      await new Promise((resolve) => this.server.close(resolve));
    }
  }
}
