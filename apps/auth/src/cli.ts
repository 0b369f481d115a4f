// The operator CLI (docs/operations.md § Operator CLI). Arguments are read first: `--help` and
// usage errors answer from cli-args.ts alone, before the configuration, TypeORM and the other
// modules of the commands are even loaded (that loading alone took about 4 s).
import { parseCliArgs, USAGE } from './cli-args.js';

async function main(argv: string[]): Promise<number> {
  const parsed = parseCliArgs(argv);
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === 'usage') {
    process.stderr.write(parsed.message);
    return 2;
  }
  const out = (text: string) => process.stdout.write(text);
  if (parsed.command === 'migrations:status') {
    // Only its own small module: no TypeORM, no service modules (migrations-status.ts), and the
    // configuration readers without their Nest module (@wp/config/env).
    const [{ loadDotenv }, { printMigrationsStatus }] = await Promise.all([
      import('@wp/config/env'),
      import('./migrations-status.js'),
    ]);
    loadDotenv();
    // eslint-disable-next-line no-restricted-syntax -- the CLI's configuration is the environment
    return printMigrationsStatus(process.env, parsed.json, out);
  }
  const [{ loadDotenv }, { runCli }] = await Promise.all([
    import('@wp/config'),
    import('./applications.cli.js'),
  ]);
  loadDotenv();
  return runCli(argv, {
    // eslint-disable-next-line no-restricted-syntax -- the CLI's configuration is the environment
    env: process.env,
    out,
    err: (text) => process.stderr.write(text),
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`cli: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
