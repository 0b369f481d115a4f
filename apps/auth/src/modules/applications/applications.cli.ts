import { loadConfig } from '@wp/config';
import { openApiKeyStore } from '@wp/platform';
import { ApiKeyRegistry } from '@wp/security';
import { authConfigSchema } from '../../config/auth.config.js';
import { authDataSource } from '../../database/data-source.js';
import { ApplicationsRepository } from './applications.repository.js';
import { ApplicationsService } from './applications.service.js';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  apps:create NAME   register a client application and print its new Api-Key (shown once)
  apps:list          list client applications
`;

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
  const [command, ...args] = argv;
  if (command !== 'apps:create' && command !== 'apps:list') {
    io.out(USAGE);
    return command ? 2 : 0;
  }
  const config = loadConfig(authConfigSchema, io.env);
  const dataSource = authDataSource(config.AUTH_DATABASE_URL);
  await dataSource.initialize();
  const apiKeys = openApiKeyStore(config);
  try {
    const repository = new ApplicationsRepository(dataSource);
    if (command === 'apps:list') {
      for (const app of await repository.findActive()) {
        io.out(`${app.id}  ${app.keyPrefix}…  ${app.name}  ${app.createdAt.toISOString()}\n`);
      }
      return 0;
    }
    const name = args.join(' ').trim();
    if (!name) {
      io.err('apps:create needs a NAME\n');
      return 2;
    }
    const service = new ApplicationsService(repository, new ApiKeyRegistry(apiKeys.store), config);
    const { application, apiKey } = await service.create(name);
    io.out(
      `Created client application "${application.name}" (${application.id}).\n` +
        `Api-Key (shown once, store it now): ${apiKey}\n`,
    );
    return 0;
  } finally {
    await apiKeys.close();
    await dataSource.destroy();
  }
}
