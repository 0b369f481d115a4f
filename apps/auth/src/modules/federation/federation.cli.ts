import { validate } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import type { TxHost } from '@wp/persistence';
import { AesGcmEnvelope } from '@wp/security';
import type { DataSource, EntityManager } from 'typeorm';
import { OperatorAudit, type OperatorActor } from '../audit/operator-audit.js';
import type { AuthConfig } from '../../config/auth.config.js';
import { ApplicationsRedirects } from './applications-redirects.js';
import { ConnectionsRepository } from './connections.repository.js';
import { ConnectionsService } from './connections.service.js';
import { CreateConnectionDto, RedirectUrisDto } from './dto/connection.dto.js';

interface CliContext {
  config: AuthConfig;
  dataSource: DataSource;
  io: {
    env: Record<string, string | undefined>;
    err: (text: string) => void;
  };
  print: (value: unknown, text: string) => void;
}

/**
 * The CLI runs without Nest and without a request context, one command at a time: the
 * repositories get a host whose `tx` is the data source's own manager (autocommit) outside
 * `withTransaction`, and that transaction's manager inside it (a connection change and its
 * audit entry commit together).
 */
function cliHost(dataSource: DataSource): TxHost {
  let active: EntityManager | null = null;
  return {
    get tx() {
      return active ?? dataSource.manager;
    },
    isTransactionActive: () => active !== null,
    withTransaction: <T>(work: () => Promise<T>) =>
      dataSource.transaction(async (manager) => {
        active = manager;
        try {
          return await work();
        } finally {
          active = null;
        }
      }),
  } as unknown as TxHost;
}

/** The validation messages of a DTO, one line each; empty when valid. */
async function problems(dto: object): Promise<string> {
  const errors = await validate(dto, { forbidUnknownValues: false });
  return errors
    .map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}\n`)
    .join('');
}

/**
 * Operator commands of sign-in with an OpenID provider (docs/operations.md § Operator CLI):
 * `connections:create|list|enable|disable` and `apps:redirect-uris`, with the rules of the
 * Admin-Access API (the same DTOs and services).
 * @returns the exit code: 0 done, 1 refused (invalid value, unknown application or slug)
 */
export async function runFederationCommand(
  command: string,
  args: string[],
  ctx: CliContext,
): Promise<number> {
  const host = cliHost(ctx.dataSource);
  const repository = new ConnectionsRepository(host);
  const service = new ConnectionsService(
    host,
    repository,
    AesGcmEnvelope.fromConfig(ctx.config.SECRETS_ENCRYPTION_KEY),
    new OperatorAudit(host),
  );
  const actor: OperatorActor = {
    type: 'cli',
    osUser: ctx.io.env['USER'] ?? ctx.io.env['LOGNAME'] ?? null,
  };
  const fail = (text: string) => {
    ctx.io.err(text);
    return 1;
  };
  if (command === 'apps:redirect-uris') {
    const [appId, ...redirectUris] = args;
    const dto = plainToInstance(RedirectUrisDto, { redirectUris });
    const invalid = await problems(dto);
    if (invalid) return fail(invalid);
    const saved = await new ApplicationsRedirects(host, new OperatorAudit(host))
      .set((appId ?? '').toLowerCase(), dto.redirectUris, actor)
      .catch(() => null);
    if (!saved) return fail(`no active client application ${appId}\n`);
    ctx.print(saved, `Redirect URIs of ${saved.id}: ${saved.redirectUris.join(' ') || '(none)'}\n`);
    return 0;
  }
  if (command === 'connections:list') {
    const list = await service.list();
    ctx.print(
      list,
      list
        .map((c) => `${c.id}  ${c.slug}  ${c.enabled ? 'enabled ' : 'disabled'}  ${c.issuer}\n`)
        .join(''),
    );
    return 0;
  }
  if (command === 'connections:create') {
    const [slug, issuer, clientId] = args;
    const dto = plainToInstance(CreateConnectionDto, {
      slug,
      name: slug,
      issuer,
      clientId,
      clientSecret: ctx.io.env['OIDC_CLIENT_SECRET'] ?? '',
    });
    const invalid = await problems(dto);
    if (invalid) return fail(invalid);
    const created = await service.create(dto, actor).catch((e: Error) => e);
    if (created instanceof Error) return fail(`${created.message}\n`);
    ctx.print(created, `Created connection ${created.slug} (${created.id}).\n`);
    return 0;
  }
  const connection = await repository.findBySlug(args.join(' '));
  if (!connection) return fail(`no connection ${args.join(' ')}\n`);
  const updated = await service.update(
    connection.id,
    { enabled: command === 'connections:enable' },
    actor,
  );
  ctx.print(updated, `Connection ${updated.slug} ${updated.enabled ? 'enabled' : 'disabled'}.\n`);
  return 0;
}
