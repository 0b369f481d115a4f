import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';

/**
 * TOTP parameters (RFC 6238 with HOTP of RFC 4226): HMAC-SHA1, 6 digits, 30-second steps —
 * what every authenticator app supports — and a 160-bit secret (RFC 4226 § 4 R6).
 */
export const TOTP_PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Codes of the previous and the next step are accepted too (RFC 6238 § 5.2: clock drift). */
export const TOTP_WINDOW = 1;
const SECRET_BYTES = 20;

/** A new random shared secret, base32 (RFC 4648) as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/**
 * The `otpauth://totp/<issuer>:<label>?secret=…&issuer=…` URI authenticator apps import
 * (Key Uri Format), built by the otpauth library.
 */
export function otpauthUri(secret: string, issuer: string, label: string): string {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    ...TOTP_PARAMETERS,
  }).toString();
}

/**
 * The time step (Unix seconds / 30) whose code `code` is, within ±{@link TOTP_WINDOW} steps of
 * `nowMs`; null when it is none of them (or not 6 digits). Comparison is constant-time (otpauth).
 */
export function matchingStep(secret: string, code: string, nowMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    ...TOTP_PARAMETERS,
    timestamp: nowMs,
    window: TOTP_WINDOW,
  });
  return delta === null ? null : currentStep(nowMs) + delta;
}

/** The time step of an instant (RFC 6238 § 4.2, T0 = 0). */
export function currentStep(nowMs = Date.now()): number {
  return Math.floor(nowMs / 1000 / TOTP_PARAMETERS.period);
}

/** The code of a step (tests, and nothing else: the server never sends codes). */
export function codeAt(secret: string, nowMs: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), ...TOTP_PARAMETERS, timestamp: nowMs });
}

/** The URI as a QR code: an SVG document (uqr) and the same as a `data:` URL for an `<img>`. */
export function qrCode(uri: string): { svg: string; dataUrl: string } {
  const svg = renderSVG(uri, { ecc: 'M' });
  return { svg, dataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}
