import { parseBasic } from './basic-auth.guard.js';

describe('parseBasic', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  it('splits at the first colon, so secrets may contain colons', () => {
    expect(parseBasic(`Basic ${b64('pk-lf-1:sk:with:colons')}`)).toEqual({
      publicKey: 'pk-lf-1',
      secretKey: 'sk:with:colons',
    });
  });

  it.each([
    [undefined, 'missing'],
    ['', 'missing'],
    ['Bearer token', 'malformed'],
    [`Basic ${b64('no-colon')}`, 'malformed'],
    [`Basic ${b64(':secret')}`, 'malformed'],
    [`Basic ${b64('public:')}`, 'malformed'],
    [['Basic a', 'Basic b'], 'malformed'],
  ])('rejects %p as %s', (header, expected) => {
    expect(parseBasic(header as never)).toBe(expected);
  });
});
