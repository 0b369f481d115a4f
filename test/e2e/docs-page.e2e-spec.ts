import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { PlatformStack } from '../support/stack.js';

/** Debian's chromium (.ci/run installs it); `CHROMIUM_PATH` points elsewhere. */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/** Test artifacts (git-ignored): the page's screenshot. */
const ARTIFACTS = join(__dirname, '..', '..', 'test-results');
const TRANSACT = '#operations-Wallets-TransactionsController_transact';

describe('GET /docs in headless Chromium (docs/api-documentation.md)', () => {
  let stack: PlatformStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await PlatformStack.start();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('loads, shows every tag of the document and the request schema of transact', async () => {
    const document = JSON.parse(
      readFileSync(join(__dirname, '..', '..', 'docs', 'openapi.json'), 'utf8'),
    ) as { tags: { name: string }[] };
    const page = await browser.newPage({ viewport: { width: 1280, height: 2400 } });
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    const response = await page.goto(`${stack.gatewayUrl}/docs`);
    expect(response?.status()).toBe(200);
    // Swagger UI renders the whole document before the first tag shows: ~5 s on a quiet machine,
    // up to half a minute on a busy CI machine. What is asserted is that it renders, not how fast.
    await page.waitForSelector('.opblock-tag', { timeout: 120_000 });
    const tags = await page.$$eval('.opblock-tag', (els) =>
      els.map((e) => e.getAttribute('data-tag')),
    );
    expect(tags).toEqual(document.tags.map((t) => t.name));

    await page.click(`${TRANSACT} .opblock-summary`);
    const body = page.locator(`${TRANSACT} .opblock-section-request-body`);
    await body.waitFor({ timeout: 60_000 });
    const text = await body.innerText();
    for (const field of ['transaction', 'from_wallet', 'to_wallet', 'amount']) {
      expect(text).toContain(field);
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'docs-page.png'), fullPage: false });
    expect(failures).toEqual([]);
  }, 240_000);
});
