import { codeAt, currentStep, matchingStep, newTotpSecret, otpauthUri, qrCode } from './totp.js';

// RFC 6238 Appendix B: the SHA-1 seed "12345678901234567890" (ASCII) in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP (RFC 6238)', () => {
  it('produces the RFC 6238 test vectors (6-digit truncation of the SHA-1 column)', () => {
    expect(codeAt(RFC_SECRET, 59_000)).toBe('287082');
    expect(codeAt(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    expect(codeAt(RFC_SECRET, 2_000_000_000_000)).toBe('279037');
  });

  it('accepts the codes of the previous, current and next step and says which step matched', () => {
    const now = 1_795_000_000_000;
    const step = currentStep(now);
    for (const delta of [-1, 0, 1]) {
      const code = codeAt(RFC_SECRET, (step + delta) * 30_000);
      expect(matchingStep(RFC_SECRET, code, now)).toBe(step + delta);
    }
  });

  it('refuses codes two steps away, and anything that is not six digits', () => {
    const now = 1_795_000_000_000;
    const step = currentStep(now);
    const valid = new Set([-1, 0, 1].map((d) => codeAt(RFC_SECRET, (step + d) * 30_000)));
    for (const delta of [-2, 2]) {
      const code = codeAt(RFC_SECRET, (step + delta) * 30_000);
      if (!valid.has(code)) expect(matchingStep(RFC_SECRET, code, now)).toBeNull();
    }
    for (const bad of ['', '12345', '1234567', 'abcdef', ' 12345']) {
      expect(matchingStep(RFC_SECRET, bad, now)).toBeNull();
    }
  });

  it('makes 160-bit base32 secrets and an otpauth:// URI authenticator apps read', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = otpauthUri(secret, 'Acme Cloud', 'ada@example.com');
    expect(uri).toBe(
      `otpauth://totp/Acme%20Cloud:ada%40example.com?issuer=Acme%20Cloud&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
  });

  it('renders the URI as an SVG QR code and the same SVG as a data URL', () => {
    const { svg, dataUrl } = qrCode('otpauth://totp/x:y?secret=ABC');
    expect(svg).toMatch(/^<svg [^>]*viewBox/);
    expect(dataUrl.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(dataUrl.slice(26), 'base64').toString()).toBe(svg);
  });
});
