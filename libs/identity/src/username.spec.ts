import { emailKey, mailboxOf, parseEmail } from './email.js';
import { parsePhone } from './phone.js';
import { foldText, hasInvisible } from './text.js';
import { parseUsername, usernameKey, usernameLookupKey } from './username.js';

const NFD_JOSE = 'jose\u0301@example.com';
const NFC_JOSE = 'jos\u00e9@example.com';

describe('e-mail addresses', () => {
  it('keeps the address as typed and keys it by folded local part and IDNA domain', () => {
    expect(parseEmail('  Ada@Example.COM ')).toEqual({
      display: 'Ada@Example.COM',
      key: 'ada@example.com',
      mailbox: 'Ada@example.com',
      local: 'Ada',
      domain: 'example.com',
    });
  });

  it.each([
    ['fullwidth letters', '\uff41da@example.com'],
    ['a fullwidth at sign and capitals', '\uff21\uff24\uff21\uff20example.com'],
    ['a fullwidth domain', 'ada@\uff45xample.com'],
    ['an upper-case domain', 'ada@EXAMPLE.com'],
    ['a zero-width space', 'ada\u200b@example.com'],
    ['a soft hyphen in the domain', 'ada@exam\u00adple.com'],
  ])('gives %s the key of the plain address', (_, spelling) => {
    expect(emailKey(spelling)).toBe('ada@example.com');
  });

  it('gives decomposed and precomposed letters one key', () => {
    expect(emailKey(NFD_JOSE)).toBe(emailKey(NFC_JOSE));
    expect(emailKey(NFD_JOSE)).toBe(NFC_JOSE);
  });

  it('keys an internationalized domain by its punycode and keeps ß (nontransitional)', () => {
    expect(emailKey('ada@B\u00fccher.de')).toBe('ada@xn--bcher-kva.de');
    expect(emailKey('ada@xn--bcher-kva.de')).toBe('ada@xn--bcher-kva.de');
    expect(emailKey('ada@stra\u00dfe.de')).not.toBe(emailKey('ada@strasse.de'));
  });

  it('refuses what is no address, and keys an unparsable text with @ by folding it', () => {
    for (const bad of ['not-an-email', 'a@b', 'ada@exa_mple.com', '@example.com', 'ada@', '']) {
      expect(parseEmail(bad)).toBeNull();
    }
    expect(parseEmail(`${'a'.repeat(250)}@example.com`)).toBeNull();
    expect(emailKey('Ada@Exa_mple.com')).toBe('ada@exa_mple.com');
    expect(emailKey('+14155550100')).toBeNull();
  });

  it('sends mail to the NFKC local part at the ASCII domain', () => {
    expect(mailboxOf('\uff21da@B\u00fccher.de')).toBe('Ada@xn--bcher-kva.de');
    expect(mailboxOf('not an address')).toBe('not an address');
  });
});

describe('phone numbers', () => {
  it('normalizes to E.164, with or without a calling code, fullwidth digits too', () => {
    expect(parsePhone('+1 415 555 0100')).toBe('+14155550100');
    expect(parsePhone('4155550100', '1')).toBe('+14155550100');
    expect(parsePhone('07911123456', '+44')).toBe('+447911123456');
    expect(
      parsePhone('\uff0b\uff11\uff14\uff11\uff15\uff15\uff15\uff15\uff10\uff11\uff10\uff10'),
    ).toBe('+14155550100');
    expect(parsePhone('123', '44')).toBeNull();
  });
});

describe('usernames', () => {
  it('recognizes an e-mail address (fullwidth @ too) or a phone number', () => {
    expect(parseUsername('Ada@example.com')).toMatchObject({
      kind: 'email',
      display: 'Ada@example.com',
      key: 'ada@example.com',
    });
    expect(parseUsername('ada\uff20example.com')).toMatchObject({ key: 'ada@example.com' });
    expect(parseUsername('+1 (415) 555-0100')).toEqual({
      kind: 'phone',
      display: '+14155550100',
      key: '+14155550100',
    });
    expect(parseUsername('nobody')).toBeNull();
  });

  it('looks every spelling of one account up under one key', () => {
    const key = usernameLookupKey('ada@example.com');
    for (const spelling of [
      'ADA@example.com',
      '\uff41da@\uff45xample.com',
      'ada\u200b@example.com',
    ]) {
      expect(usernameLookupKey(spelling)).toBe(key);
    }
    expect(usernameLookupKey('+1 415 555 0100')).toBe('+14155550100');
  });

  it('keys rate limits by the normalized username so spellings share one budget', () => {
    expect(usernameKey('ADA@example.com ')).toBe(usernameKey('ada@example.com'));
    expect(usernameKey('\uff41da@example.com')).toBe('email:ada@example.com');
    expect(usernameKey('+1 (415) 555-0100')).toBe(usernameKey('+14155550100'));
    expect(usernameKey('Some Name')).toBe('raw:some name');
    expect(usernameKey('Some\u200b Name')).toBe('raw:some name');
  });
});

describe('text folding', () => {
  it('applies NFKC, lower case and NFC, and drops invisible characters', () => {
    expect(foldText('\ufb01LE \u2168')).toBe('file ix');
    expect(foldText('A\u200dB\u00adC')).toBe('abc');
    expect(hasInvisible('a\u200bb')).toBe(true);
    expect(hasInvisible('a\u202eb')).toBe(true);
    expect(hasInvisible('ab')).toBe(false);
  });
});
