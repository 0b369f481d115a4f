import { Transform } from 'class-transformer';
import { describeValidator } from '@wp/http';
import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';
import { ASSET_CODE } from '../config/wallet.config.js';
import { WALLET_ADDRESS } from './address.js';
import { MAX_AMOUNT, amountProblem } from './amount.js';

// What each validator below accepts, for the OpenAPI document (@wp/http describeValidator).
// Eight decimals at most is not stated: JSON Schema's multipleOf is unreliable on binary
// floating point, so that rule stays in the field's description.
describeValidator('isAmount', { type: 'number', exclusiveMinimum: 0, maximum: MAX_AMOUNT });
// Every DTO field with it is lower-cased first (@LowerCase), so either case is accepted.
describeValidator('isWalletAddress', { pattern: '^0[xX][0-9a-fA-F]{40}$' });
describeValidator('isAssetCode', { pattern: ASSET_CODE.source });
describeValidator('isSmallObject', { type: 'object' });

/**
 * An amount (docs/architecture.md § Amounts): a JSON number > 0, ≤ 1e15, at most 8 decimals.
 * Strings are refused. The message says which rule failed.
 */
export function IsAmount(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAmount',
      validator: {
        validate: (value: unknown) => amountProblem(value) === null,
        defaultMessage: (args) => `${args?.property ?? 'amount'} ${amountProblem(args?.value)}`,
      },
    },
    options,
  );
}

/** A wallet address: `0x` + 40 hex characters (lower case; see `WalletAddressPipe`). */
export function IsWalletAddress(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isWalletAddress',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && WALLET_ADDRESS.test(value),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a wallet address (0x followed by 40 hex digits)`,
          options,
        ),
      },
    },
    options,
  );
}

/** An asset code such as `CREDITS` (whether it is offered is a 422, checked later). */
export function IsAssetCode(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAssetCode',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && ASSET_CODE.test(value),
        defaultMessage: buildMessage(
          (each) =>
            `${each}$property must be an asset code (2-16 upper-case letters, digits or _, e.g. CREDITS)`,
          options,
        ),
      },
    },
    options,
  );
}

/** A JSON object of at most `maxBytes` once serialized. */
export function IsSmallObject(maxBytes: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSmallObject',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Buffer.byteLength(JSON.stringify(value)) <= maxBytes,
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a JSON object of at most ${maxBytes} bytes`,
          options,
        ),
      },
    },
    options,
  );
}

/** Lower-cases a string value (addresses are compared in lower case); leaves others alone. */
export function LowerCase(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
}
