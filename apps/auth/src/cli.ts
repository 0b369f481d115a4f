import { loadDotenv } from '@wp/config';
import { runCli } from './applications.cli.js';

loadDotenv();
runCli(process.argv.slice(2), {
  // eslint-disable-next-line no-restricted-syntax -- the CLI's configuration is the environment
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`cli: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
