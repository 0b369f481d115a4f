import { loadConfig, loadDotenv } from '@wp/config';
import { ApiKeyRegistry } from '@wp/security';
import { Redis } from 'ioredis';
import { authConfigSchema } from './config/auth.config.js';
import { authDataSource } from './database/data-source.js';
import { ApplicationsRepository } from './modules/applications/applications.repository.js';
import { ApplicationsService } from './modules/applications/applications.service.js';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  apps:create NAME   register a client application and print its new Api-Key (shown once)
  apps:list          list client applications
`;

/** Operator commands (ARCHITECTURE § 3): `npm run cli -- apps:create NAME`. */
async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command !== 'apps:create' && command !== 'apps:list') {
    process.stdout.write(USAGE);
    return command ? 2 : 0;
  }
  loadDotenv();
  const config = loadConfig(authConfigSchema);
  const dataSource = authDataSource(config.AUTH_DATABASE_URL);
  await dataSource.initialize();
  const redis = new Redis(config.REDIS_URL, { keyPrefix: config.REDIS_KEY_PREFIX });
  try {
    const repository = new ApplicationsRepository(dataSource);
    if (command === 'apps:list') {
      for (const app of await repository.findActive()) {
        process.stdout.write(
          `${app.id}  ${app.keyPrefix}…  ${app.name}  ${app.createdAt.toISOString()}\n`,
        );
      }
      return 0;
    }
    const name = args.join(' ').trim();
    if (!name) {
      process.stderr.write('apps:create needs a NAME\n');
      return 2;
    }
    const service = new ApplicationsService(repository, new ApiKeyRegistry(redis), config);
    const { application, apiKey } = await service.create(name);
    process.stdout.write(
      `Created client application "${application.name}" (${application.id}).\n` +
        `Api-Key (shown once, store it now): ${apiKey}\n`,
    );
    return 0;
  } finally {
    redis.disconnect();
    await dataSource.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`cli: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
