import { parseCliArgs, USAGE } from './cli-args.js';

describe('parseCliArgs', () => {
  it('asks for the usage text with no command, --help or help', () => {
    for (const argv of [[], ['--help'], ['help'], ['--json'], ['--json', '--help']]) {
      expect(parseCliArgs(argv)).toEqual({ kind: 'help' });
    }
  });

  it('refuses an unknown command with the usage text', () => {
    expect(parseCliArgs(['apps:delete'])).toEqual({
      kind: 'usage',
      message: `unknown command apps:delete\n${USAGE}`,
    });
  });

  it('wants a NAME for apps:create and joins its words', () => {
    expect(parseCliArgs(['apps:create'])).toEqual({
      kind: 'usage',
      message: 'apps:create needs a NAME\n',
    });
    expect(parseCliArgs(['apps:create', ' ', '--json'])).toMatchObject({ kind: 'usage' });
    expect(parseCliArgs(['apps:create', 'Mobile', 'app', '--json'])).toEqual({
      kind: 'run',
      command: 'apps:create',
      arg: 'Mobile app',
      args: ['Mobile', 'app'],
      json: true,
    });
  });

  it('wants a UUID for apps:revoke', () => {
    expect(parseCliArgs(['apps:revoke', '42'])).toMatchObject({ kind: 'usage' });
    expect(parseCliArgs(['apps:revoke'])).toMatchObject({ kind: 'usage' });
    const id = '0b6c9d6e-3f7a-4c1e-9a43-2d5b8f1e7c20';
    expect(parseCliArgs(['apps:revoke', id])).toEqual({
      kind: 'run',
      command: 'apps:revoke',
      arg: id,
      args: [id],
      json: false,
    });
  });

  it('runs apps:list and migrations:status, with --json anywhere', () => {
    expect(parseCliArgs(['--json', 'apps:list'])).toEqual({
      kind: 'run',
      command: 'apps:list',
      arg: '',
      args: [],
      json: true,
    });
    expect(parseCliArgs(['migrations:status'])).toMatchObject({
      kind: 'run',
      command: 'migrations:status',
    });
  });

  it('reads the arguments of the provider sign-in commands one by one', () => {
    expect(parseCliArgs(['connections:create', 'corp', 'https://idp.example.com'])).toMatchObject({
      kind: 'usage',
    });
    expect(parseCliArgs(['connections:disable'])).toMatchObject({ kind: 'usage' });
    expect(parseCliArgs(['apps:redirect-uris', 'not-a-uuid', 'https://a.b/c'])).toMatchObject({
      kind: 'usage',
    });
    expect(parseCliArgs(['connections:create', 'corp', 'https://idp.example.com', 'c'])).toEqual({
      kind: 'run',
      command: 'connections:create',
      arg: 'corp https://idp.example.com c',
      args: ['corp', 'https://idp.example.com', 'c'],
      json: false,
    });
  });
});
