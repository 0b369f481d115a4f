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

  it('wants an ID and a relying party with origins, or default, for apps:webauthn', () => {
    const id = '4b0e7f3c-1d2a-4f5b-8c6d-7e8f9a0b1c2d';
    expect(parseCliArgs(['apps:webauthn', id])).toMatchObject({ kind: 'usage' });
    expect(parseCliArgs(['apps:webauthn', id, 'example.com'])).toMatchObject({ kind: 'usage' });
    expect(parseCliArgs(['apps:webauthn', '42', 'default'])).toMatchObject({ kind: 'usage' });
    expect(parseCliArgs(['apps:webauthn', id, 'default', 'x'])).toMatchObject({ kind: 'usage' });
    expect(parseCliArgs(['apps:webauthn', id, 'example.com', 'https://example.com'])).toEqual({
      kind: 'run',
      command: 'apps:webauthn',
      arg: `${id} example.com https://example.com`,
      args: [id, 'example.com', 'https://example.com'],
      json: false,
    });
    expect(parseCliArgs(['apps:webauthn', id, 'default'])).toMatchObject({ kind: 'run' });
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
