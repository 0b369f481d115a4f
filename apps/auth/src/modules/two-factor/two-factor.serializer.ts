import { ApiProperty } from '@nestjs/swagger';
import { TOTP_PARAMETERS } from './totp.js';

/** Attributes of the `two_factor` resource: the account's two-factor state. */
export class TwoFactorStatusAttributes {
  @ApiProperty({ description: 'Two-factor authentication is on.' })
  enabled!: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'When it was turned on (ISO 8601).' })
  enabledAt!: string | null;

  @ApiProperty({ description: 'An enrolment was started and not confirmed yet.' })
  enrolmentPending!: boolean;

  @ApiProperty({ description: 'Unused recovery codes left.' })
  recoveryCodesRemaining!: number;
}

export class TwoFactorStatusData {
  @ApiProperty({ enum: ['two_factor'] })
  type!: 'two_factor';

  @ApiProperty({ description: 'The user id.' })
  id!: string;

  @ApiProperty({ type: () => TwoFactorStatusAttributes })
  attributes!: TwoFactorStatusAttributes;
}

/** `GET /users/me/two_factor`, and the answer of disabling. */
export class TwoFactorStatusResource {
  @ApiProperty({ type: () => TwoFactorStatusData })
  data!: TwoFactorStatusData;
}

/** Attributes of a started enrolment: the secret, shown this once, and how to scan it. */
export class TwoFactorEnrolmentAttributes {
  @ApiProperty({ description: 'The shared secret, base32 (RFC 4648), for manual entry.' })
  secret!: string;

  @ApiProperty({ description: '`otpauth://totp/…` URI (Key Uri Format) for authenticator apps.' })
  otpauthUri!: string;

  @ApiProperty({ description: 'The URI as a QR code, an SVG document.' })
  qrCodeSvg!: string;

  @ApiProperty({ description: 'The same QR code as a `data:image/svg+xml;base64,…` URL.' })
  qrCodeDataUrl!: string;

  @ApiProperty({ enum: [TOTP_PARAMETERS.algorithm] })
  algorithm!: string;

  @ApiProperty({ example: TOTP_PARAMETERS.digits })
  digits!: number;

  @ApiProperty({ example: TOTP_PARAMETERS.period, description: 'Seconds per code.' })
  period!: number;
}

export class TwoFactorEnrolmentData {
  @ApiProperty({ enum: ['two_factor_enrolment'] })
  type!: 'two_factor_enrolment';

  @ApiProperty({ description: 'The user id.' })
  id!: string;

  @ApiProperty({ type: () => TwoFactorEnrolmentAttributes })
  attributes!: TwoFactorEnrolmentAttributes;
}

/** `POST /users/me/two_factor` (201). */
export class TwoFactorEnrolmentResource {
  @ApiProperty({ type: () => TwoFactorEnrolmentData })
  data!: TwoFactorEnrolmentData;
}

export class RecoveryCodesAttributes {
  @ApiProperty({
    type: [String],
    description: 'Ten single-use recovery codes, shown this once (only hashes are kept).',
  })
  recoveryCodes!: string[];
}

export class RecoveryCodesData {
  @ApiProperty({ enum: ['recovery_codes'] })
  type!: 'recovery_codes';

  @ApiProperty({ description: 'The user id.' })
  id!: string;

  @ApiProperty({ type: () => RecoveryCodesAttributes })
  attributes!: RecoveryCodesAttributes;
}

/** `POST /users/me/two_factor/confirm` and `POST /users/me/two_factor/recovery_codes`. */
export class RecoveryCodesResource {
  @ApiProperty({ type: () => RecoveryCodesData })
  data!: RecoveryCodesData;
}

export function toStatusResource(
  userId: string,
  attributes: TwoFactorStatusAttributes,
): TwoFactorStatusResource {
  return { data: { type: 'two_factor', id: userId, attributes } };
}

export function toRecoveryCodesResource(userId: string, codes: string[]): RecoveryCodesResource {
  return { data: { type: 'recovery_codes', id: userId, attributes: { recoveryCodes: codes } } };
}
