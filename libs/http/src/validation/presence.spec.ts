import { Type } from 'class-transformer';
import { IsIn, IsObject, IsString, ValidateNested } from 'class-validator';
import { ValidationFailedError } from '../errors/validation-error.js';
import { MayBeAbsent, MayBeNull } from './presence.js';
import { RequestValidationPipe } from './request-validation.pipe.js';

class Attributes {
  @MayBeAbsent()
  @IsIn(['OWNER', 'MEMBER'])
  role?: string;

  /** null: never expires. */
  @MayBeNull()
  @IsString()
  expiresAt?: string | null;
}

class Body {
  @MayBeAbsent()
  @IsObject()
  @ValidateNested()
  @Type(() => Attributes)
  data?: Attributes;

  @MayBeAbsent()
  @IsString()
  note?: string;
}

describe('MayBeAbsent and MayBeNull (docs/decisions.md § Wire format)', () => {
  const pipe = new RequestValidationPipe();
  const validate = (value: unknown) => pipe.transform(value, { type: 'body', metatype: Body });
  const refusal = async (value: unknown) => {
    const error = await validate(value).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationFailedError);
    return (error as ValidationFailedError).toItems();
  };

  it('accepts a field left out', async () => {
    await expect(validate({})).resolves.toEqual({});
    await expect(validate({ data: {} })).resolves.toEqual({ data: {} });
  });

  it('refuses null where the field may only be absent, pointing at it', async () => {
    expect(await refusal({ data: { role: null } })).toEqual([
      expect.objectContaining({
        source: { pointer: '/data/role' },
        detail: 'must not be null; leave the field out instead',
      }),
    ]);
    expect(await refusal({ data: null })).toEqual([
      expect.objectContaining({ source: { pointer: '/data' } }),
    ]);
    expect(await refusal({ note: null })).toEqual([
      expect.objectContaining({ source: { pointer: '/note' } }),
    ]);
  });

  it('still validates a present value', async () => {
    expect(await refusal({ data: { role: 'KING' } })).toEqual([
      expect.objectContaining({ source: { pointer: '/data/role' } }),
    ]);
    await expect(validate({ data: { role: 'OWNER' } })).resolves.toEqual({
      data: { role: 'OWNER' },
    });
  });

  it('keeps null where it has a meaning, and validates anything else', async () => {
    await expect(validate({ data: { expiresAt: null } })).resolves.toEqual({
      data: { expiresAt: null },
    });
    expect(await refusal({ data: { expiresAt: 5 } })).toEqual([
      expect.objectContaining({ source: { pointer: '/data/expiresAt' } }),
    ]);
  });
});
