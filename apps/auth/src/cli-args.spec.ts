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
      json: false,
    });
  });

  it('runs apps:list and migrations:status, with --json anywhere', () => {
    expect(parseCliArgs(['--json', 'apps:list'])).toEqual({
      kind: 'run',
      command: 'apps:list',
      arg: '',
      json: true,
    });
    expect(parseCliArgs(['migrations:status'])).toMatchObject({
      kind: 'run',
      command: 'migrations:status',
    });
  });
});
