import { randomBytes } from 'node:crypto';
import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { ValidationFailedError } from '@wp/http';

/** A new wallet address: `0x` + 40 lower-case hex characters (160 random bits). */
export function newWalletAddress(): string {
  return `0x${randomBytes(20).toString('hex')}`;
}

export const WALLET_ADDRESS = /^0x[0-9a-f]{40}$/;

/**
 * `{addressHash}` path parameters: `0x` + 40 hex digits, any case (answered in lower case);
 * anything else is a 400 naming the parameter.
 */
@Injectable()
export class WalletAddressPipe implements PipeTransform<string, string> {
  /** What it accepts (lower-cased first), as the OpenAPI document states the parameter. */
  static readonly openApiSchema = { type: 'string', pattern: '^0[xX][0-9a-fA-F]{40}$' };

  transform(value: string, metadata: ArgumentMetadata): string {
    const address = typeof value === 'string' ? value.toLowerCase() : '';
    if (WALLET_ADDRESS.test(address)) return address;
    throw ValidationFailedError.at(
      { parameter: metadata.data ?? 'addressHash' },
      'must be a wallet address (0x followed by 40 hex digits)',
    );
  }
}
