import { ApiProperty } from '@nestjs/swagger';
import type { PasskeyRow } from './passkeys.repository.js';

/** Attributes of a `passkey` resource. The public key is never shown. */
export class PasskeyAttributes {
  @ApiProperty({ description: 'Name given at registration or by PATCH.' })
  name!: string;

  @ApiProperty({ description: 'ISO 8601.' })
  createdAt!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Last sign-in with it (ISO 8601).' })
  lastUsedAt!: string | null;

  @ApiProperty({
    type: [String],
    description: 'Transports the authenticator named (`internal`, `usb`, `hybrid`, …).',
  })
  transports!: string[];

  @ApiProperty({ description: 'The credential is synced or backed up (the BS flag).' })
  backedUp!: boolean;

  @ApiProperty({ enum: ['singleDevice', 'multiDevice'] })
  deviceType!: string;

  @ApiProperty({ description: 'The relying party id it belongs to.' })
  rpId!: string;
}

export class PasskeyData {
  @ApiProperty({ enum: ['passkey'] })
  type!: 'passkey';

  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ type: () => PasskeyAttributes })
  attributes!: PasskeyAttributes;
}

/** `POST /users/me/passkeys` (201) and `PATCH /users/me/passkeys/{id}`. */
export class PasskeyResource {
  @ApiProperty({ type: () => PasskeyData })
  data!: PasskeyData;
}

/** `GET /users/me/passkeys`. */
export class PasskeyListResource {
  @ApiProperty({ type: () => [PasskeyData] })
  data!: PasskeyData[];
}

export class WebauthnOptionsAttributes {
  @ApiProperty({
    type: Object,
    description:
      'W3C WebAuthn options in their JSON form (`PublicKeyCredentialCreationOptionsJSON` or ' +
      '`PublicKeyCredentialRequestOptionsJSON`): pass to `PublicKeyCredential.parse…OptionsFromJSON()`.',
  })
  publicKey!: Record<string, unknown>;

  @ApiProperty({ description: 'Seconds the challenge stays valid.' })
  expiresIn!: number;
}

export class WebauthnOptionsData {
  @ApiProperty({ enum: ['passkey_registration_options', 'passkey_authentication_options'] })
  type!: 'passkey_registration_options' | 'passkey_authentication_options';

  @ApiProperty({ description: 'The challenge (base64url).' })
  id!: string;

  @ApiProperty({ type: () => WebauthnOptionsAttributes })
  attributes!: WebauthnOptionsAttributes;
}

/** `POST /users/me/passkeys/options` and `POST /oauth/passkey/options`. */
export class WebauthnOptionsResource {
  @ApiProperty({ type: () => WebauthnOptionsData })
  data!: WebauthnOptionsData;
}

export function toPasskeyData(row: PasskeyRow): PasskeyData {
  return {
    type: 'passkey',
    id: row.id,
    attributes: {
      name: row.name,
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
      transports: row.transports,
      backedUp: row.backedUp,
      deviceType: row.deviceType,
      rpId: row.rpId,
    },
  };
}

export function toOptionsResource(
  type: WebauthnOptionsData['type'],
  publicKey: { challenge: string },
  expiresIn: number,
): WebauthnOptionsResource {
  return {
    data: {
      type,
      id: publicKey.challenge,
      attributes: { publicKey: publicKey, expiresIn },
    },
  };
}
