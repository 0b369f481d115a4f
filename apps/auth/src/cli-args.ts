// The operator CLI's arguments, read before anything else is loaded or opened
// (docs/operations.md § Operator CLI): `--help` and usage errors answer at once, without a
// database, and scripts/cli.js asks this module whether to start the embedded PostgreSQL at all.
// Keep this file free of imports: its whole point is to load in milliseconds.

/** The CLI's usage text (stdout for `--help`, stderr after a usage error). */
export const USAGE = `Usage: npm run cli -- <command> [--json]

Commands:
  apps:create NAME     register a client application and print its new Api-Key (shown once)
  apps:list            list active client applications (never their keys)
  apps:revoke ID       revoke an application: its Api-Key stops working within seconds
  apps:redirect-uris ID [URI ...]
                       set an application's exact redirect URIs for provider sign-ins
  connections:create SLUG ISSUER CLIENT_ID
                       add an OpenID Connect connection; the client secret is read from
                       the environment variable OIDC_CLIENT_SECRET (never an argument)
  connections:list     list OpenID Connect connections (never their secrets)
  connections:enable SLUG / connections:disable SLUG
                       let sign-ins through a connection start, or refuse them
  apps:webauthn ID RP_ID ORIGIN[,ORIGIN…]
                       set an application's passkey relying party and allowed origins
  apps:webauthn ID default
                       back to the platform's WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS
  migrations:status    applied and pending migrations of every service's database
  --help               this text

Options:
  --json               machine-readable output (one JSON document on stdout)

Exit codes: 0 done, 1 failed (e.g. unknown application), 2 usage error.
`;

/** The commands that do something; each of them needs the databases. */
export type CliCommand =
  | 'apps:create'
  | 'apps:list'
  | 'apps:revoke'
  | 'apps:webauthn'
  | 'apps:redirect-uris'
  | 'connections:create'
  | 'connections:list'
  | 'connections:enable'
  | 'connections:disable'
  | 'migrations:status';

const COMMANDS: readonly string[] = [
  'apps:create',
  'apps:list',
  'apps:revoke',
  'apps:redirect-uris',
  'connections:create',
  'connections:list',
  'connections:enable',
  'connections:disable',
  'apps:webauthn',
  'migrations:status',
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What the command line asks for:
 * - `help`: no command, `--help` or `help` (print USAGE, exit 0);
 * - `usage`: an unknown command or a missing or malformed argument (print `message`, exit 2);
 * - `run`: a command with its argument (`arg`: the NAME of apps:create, the ID of apps:revoke,
 *   else the arguments joined by spaces), the arguments one by one (`args`) and whether
 *   `--json` was given anywhere.
 */
export type ParsedCli =
  | { kind: 'help' }
  | { kind: 'usage'; message: string }
  | { kind: 'run'; command: CliCommand; arg: string; args: string[]; json: boolean };

/** Reads `argv` (process.argv without node and script); pure, never throws. */
export function parseCliArgs(argv: readonly string[]): ParsedCli {
  const json = argv.includes('--json');
  const [command, ...args] = argv.filter((a) => a !== '--json');
  if (command === undefined || command === '--help' || command === 'help') return { kind: 'help' };
  if (!COMMANDS.includes(command)) {
    return { kind: 'usage', message: `unknown command ${command}\n${USAGE}` };
  }
  const arg = args.join(' ').trim();
  if (command === 'apps:create' && !arg) {
    return { kind: 'usage', message: 'apps:create needs a NAME\n' };
  }
  if (command === 'apps:redirect-uris' && !UUID.test(args[0] ?? '')) {
    return { kind: 'usage', message: 'apps:redirect-uris needs the application ID first\n' };
  }
  if (command === 'connections:create' && args.length !== 3) {
    return { kind: 'usage', message: 'connections:create needs SLUG ISSUER CLIENT_ID\n' };
  }
  if ((command === 'connections:enable' || command === 'connections:disable') && !arg) {
    return { kind: 'usage', message: `${command} needs the connection SLUG\n` };
  }
  if (command === 'apps:revoke' && !UUID.test(arg)) {
    return {
      kind: 'usage',
      message: 'apps:revoke needs the application ID (a UUID, see apps:list)\n',
    };
  }
  if (command === 'apps:webauthn') {
    const [id, rpId, origins, ...rest] = args;
    const ok = id && UUID.test(id) && rpId && (rpId === 'default' ? !origins : origins);
    if (!ok || rest.length > 0) {
      return {
        kind: 'usage',
        message: 'apps:webauthn needs ID RP_ID ORIGIN[,ORIGIN…] or ID default\n',
      };
    }
  }
  return { kind: 'run', command: command as CliCommand, arg, args, json };
}
