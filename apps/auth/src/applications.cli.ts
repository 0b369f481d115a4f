import { loadConfig } from '@wp/config';
import { openApiKeyStore } from '@wp/platform';
import { ApiKeyRegistry } from '@wp/security';
import type { DataSource } from 'typeorm';
import { authConfigSchema, type AuthConfig } from './config/auth.config.js';
import { parseCliArgs, USAGE } from './cli-args.js';
import { authDataSource } from './database/data-source.js';
import { printMigrationsStatus } from './migrations-status.js';
import { ApplicationsRepository } from './modules/applications/applications.repository.js';
import { ApplicationsService } from './modules/applications/applications.service.js';
import { runFederationCommand } from './modules/federation/federation.cli.js';
import { checkRelyingParty } from './modules/passkeys/relying-party.js';

export interface CliIo {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * Operator commands (docs/architecture.md § Identity and access): `npm run cli -- apps:create NAME`
 * registers a client application and prints its Api-Key once; `apps:list` lists them.
 * @returns the process exit code (0 ok, 2 usage error)
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCliArgs(argv);
  if (parsed.kind === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (parsed.kind === 'usage') {
    io.err(parsed.message);
    return 2;
  }
  const { command, arg: name, args, json } = parsed;
  const print = (value: unknown, text: string) =>
    io.out(json ? `${JSON.stringify(value, null, 2)}\n` : text);
  if (command === 'migrations:status') return printMigrationsStatus(io.env, json, io.out);
  const config = loadConfig(authConfigSchema, io.env);
  const dataSource = authDataSource(config.AUTH_DATABASE_URL);
  await dataSource.initialize();
  try {
    if (command.startsWith('connections:') || command === 'apps:redirect-uris') {
      return await runFederationCommand(command, args, { config, dataSource, io, print });
    }
    return await runAppsCommand(command, name, { config, dataSource, io, print });
  } finally {
    await dataSource.destroy();
  }
}

async function runAppsCommand(
  command: string,
  arg: string,
  ctx: {
    config: AuthConfig;
    dataSource: DataSource;
    io: CliIo;
    print: (value: unknown, text: string) => void;
  },
): Promise<number> {
  const repository = new ApplicationsRepository(ctx.dataSource);
  if (command === 'apps:list') {
    const apps = (await repository.findActive()).map((a) => ({
      id: a.id,
      name: a.name,
      keyPrefix: a.keyPrefix,
      createdAt: a.createdAt.toISOString(),
    }));
    ctx.print(
      apps,
      apps.map((a) => `${a.id}  ${a.keyPrefix}…  ${a.name}  ${a.createdAt}\n`).join(''),
    );
    return 0;
  }
  if (command === 'apps:webauthn') return setWebauthn(repository, arg, ctx);
  const apiKeys = openApiKeyStore(ctx.config);
  try {
    const registry = new ApiKeyRegistry(apiKeys.store);
    if (command === 'apps:revoke') {
      const revoked = await repository.revoke(arg);
      if (!revoked) {
        ctx.io.err(`no active client application ${arg}\n`);
        return 1;
      }
      await registry.remove(revoked.keyHash);
      ctx.print(
        { id: revoked.id, name: revoked.name, revokedAt: revoked.revokedAt?.toISOString() },
        `Revoked client application "${revoked.name}" (${revoked.id}).\n`,
      );
      return 0;
    }
    const service = new ApplicationsService(repository, registry, ctx.config);
    const { application, apiKey } = await service.create(arg);
    ctx.print(
      { id: application.id, name: application.name, apiKey },
      `Created client application "${application.name}" (${application.id}).\n` +
        `Api-Key (shown once, store it now): ${apiKey}\n`,
    );
    return 0;
  } finally {
    await apiKeys.close();
  }
}

/** `apps:webauthn ID RP_ID ORIGIN[,ORIGIN…]` or `apps:webauthn ID default` (docs/auth.md § Passkeys). */
async function setWebauthn(
  repository: ApplicationsRepository,
  arg: string,
  ctx: { io: CliIo; print: (value: unknown, text: string) => void },
): Promise<number> {
  const [id, rpId, originList] = arg.split(/\s+/);
  let setting: { rpId: string | null; origins: string[] | null } = { rpId: null, origins: null };
  if (rpId !== 'default') {
    const checked = checkRelyingParty(rpId, originList.split(','));
    if ('error' in checked) {
      ctx.io.err(`${checked.error}\n`);
      return 2;
    }
    setting = { rpId, origins: checked.origins };
  }
  if (!(await repository.setWebauthn(id, setting.rpId, setting.origins))) {
    ctx.io.err(`no active client application ${id}\n`);
    return 1;
  }
  ctx.print(
    { id, webauthnRpId: setting.rpId, webauthnOrigins: setting.origins },
    setting.rpId
      ? `Passkeys of ${id}: relying party ${setting.rpId}, origins ${setting.origins?.join(', ')}.\n`
      : `Passkeys of ${id}: the platform's relying party (WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS).\n`,
  );
  return 0;
}
