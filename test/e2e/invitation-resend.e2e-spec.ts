import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@wp/config';
import { SmtpSink, waitFor } from '@wp/testing';
import { orgConfigSchema } from '../../apps/org/src/config/org.config.js';
import { createOrgApp } from '../../apps/org/src/org.app.js';
import { PlatformStack } from '../support/stack.js';

/**
 * `POST …/invitations/{id}/resend` through the gateway (docs/org.md § Invitations): it mails at
 * once — organization and project invitations — and a per-invitation budget (5 resends per hour
 * by default) protects the invitee's mailbox: beyond it 429 `INVITATION_RESEND_TOO_SOON` with
 * `Retry-After`. The budget lives in the invitation row, so it holds for parallel requests
 * spread over two org replicas. Mails are counted where they arrive: a real SMTP server.
 */
describe('invitation resend', () => {
  let smtp: SmtpSink;
  let stack: PlatformStack;
  let replica: NestFastifyApplication;
  let replicaUrl: string;
  let owner: { token: string };
  let orgId: string;
  let counter = 0;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    stack = await PlatformStack.start({ SMTP_URL: smtp.url });
    // A second org process on the same database, NATS and Redis (another replica).
    replica = await createOrgApp(loadConfig(orgConfigSchema, stack.env.env));
    await replica.listen({ port: 0, host: '127.0.0.1' });
    replicaUrl = `http://127.0.0.1:${(replica.getHttpServer().address() as { port: number }).port}`;
    const registered = await stack.request('POST', '/v1/api/users', {
      body: { username: 'inviter@resend.example.com', password: 'a long password' },
    });
    expect(registered.status).toBe(200);
    owner = { token: registered.body.data.attributes.accessToken };
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: owner.token,
      body: { data: { type: 'organization', attributes: { name: 'Resenders' } } },
    });
    expect({ status: org.status, errors: org.body.errors }).toEqual({ status: 200 });
    orgId = org.body.data.id;
  });
  afterAll(async () => {
    await replica?.close();
    await stack?.close();
    await smtp?.close();
  });

  const email = () => `invitee-${++counter}@resend.example.com`;
  const invite = async (path: string, address: string): Promise<string> => {
    const res = await stack.request('POST', `${path}/invitations`, {
      token: owner.token,
      body: { data: { type: 'membershipInvitation', attributes: { email: address } } },
    });
    expect(res.status).toBe(201);
    return res.body.data.id;
  };
  /** Waits until `count` mails reached `address`, then checks that no more come. */
  const expectMails = async (address: string, count: number) => {
    await waitFor(() => smtp.mailsTo(address).length >= count, {
      timeoutMs: 15_000,
      what: `${count} mails to ${address}`,
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.mailsTo(address)).toHaveLength(count);
  };
  const tokenIn = (text: string) => /[#&]token=([A-Za-z0-9_-]+)/.exec(text)?.[1];

  it('resends an organization invitation at once: a second mail with a new link arrives', async () => {
    const O = `/v1/api/organizations/${orgId}`;
    const address = email();
    const id = await invite(O, address);
    await expectMails(address, 1);
    const res = await stack.request('POST', `${O}/invitations/${id}/resend`, {
      token: owner.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.sendCount).toBe(2);
    await expectMails(address, 2);
    const [first, second] = smtp.mailsTo(address);
    expect(tokenIn(second.text)).toBeDefined();
    expect(tokenIn(second.text)).not.toBe(tokenIn(first.text));
  });

  it('resends a project invitation at once', async () => {
    const project = await stack.request('POST', `/v1/api/organizations/${orgId}/projects`, {
      token: owner.token,
      body: { data: { type: 'project', attributes: { name: 'Invites' } } },
    });
    expect(project.status).toBe(201);
    const P = `/v1/api/organizations/${orgId}/projects/${project.body.data.id}`;
    const address = email();
    const id = await invite(P, address);
    const res = await stack.request('POST', `${P}/invitations/${id}/resend`, {
      token: owner.token,
    });
    expect(res.status).toBe(200);
    await expectMails(address, 2);
  });

  it('sends exactly the budget of 5 out of 12 parallel resends spread over two org replicas; the rest are 429 with Retry-After', async () => {
    const O = `/v1/api/organizations/${orgId}`;
    const address = email();
    const id = await invite(O, address);
    const viaGateway = () =>
      stack.request('POST', `${O}/invitations/${id}/resend`, { token: owner.token });
    const viaReplica = async () => {
      const res = await fetch(`${replicaUrl}${O}/invitations/${id}/resend`, {
        method: 'POST',
        headers: { 'api-key': stack.apiKey, authorization: `Bearer ${owner.token}` },
      });
      return { status: res.status, body: await res.json(), headers: res.headers };
    };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? viaGateway() : viaReplica())),
    );
    const sent = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect([sent.length, refused.length]).toEqual([5, 7]);
    for (const answer of refused) {
      expect(answer.body.errors[0].code).toBe('INVITATION_RESEND_TOO_SOON');
      const wait = Number(answer.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(3500);
      expect(wait).toBeLessThanOrEqual(3600);
    }
    expect(sent.map((a) => a.body.data.attributes.sendCount).sort((a, b) => a - b)).toEqual([
      2, 3, 4, 5, 6,
    ]);
    await expectMails(address, 6); // the invitation and five resends
    const later = await viaGateway();
    expect(later.status).toBe(429);
  });
});
