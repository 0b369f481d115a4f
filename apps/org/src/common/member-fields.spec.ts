import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, IsIn, MaxLength, validateSync } from 'class-validator';
import { ROLES } from '@wp/contracts';
import { IsEmailAddress } from '@wp/identity';
import { EmailAddressField, RoleField } from './member-fields.js';
import { Trim, UpperCase } from './transforms.js';

/** The fields as the DTOs stacked them by hand before. */
class ByHand {
  @Trim()
  @MaxLength(254)
  @IsEmailAddress()
  email!: string;

  @UpperCase()
  @IsIn(ROLES, { message: `must be one of ${ROLES.join(', ')}` })
  role!: string;
}

class Shared {
  @MaxLength(254)
  @EmailAddressField()
  email!: string;

  @RoleField()
  role!: string;
}

/** Validation metadata in registration order: what the pipe and the OpenAPI document read. */
const rules = (target: new () => unknown) =>
  getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .map((m) => [m.propertyName, m.name ?? m.type, m.constraints, m.message]);

/** Each failed field with its messages in order (the pipe answers the last one). */
const errors = (target: new () => object, body: object) =>
  validateSync(plainToInstance(target, body)).map((e) => [
    e.property,
    Object.values(e.constraints ?? {}),
  ]);

describe('member body fields', () => {
  it('register the same rules in the same order as the decorators stacked by hand', () => {
    expect(rules(Shared)).toEqual(rules(ByHand));
    expect(rules(Shared).length).toBeGreaterThanOrEqual(3);
  });

  it.each([
    [{ email: '  ada@example.com ', role: 'member' }],
    [{ email: `${'a'.repeat(250)}@example.com`, role: 'OWNER' }],
    [{ email: 'not an address', role: 'chief' }],
    [{ email: `${'not an address '.repeat(20)}`, role: 'Owner' }],
    [{ email: 42, role: null }],
  ])('answer %j as the hand-stacked fields do', (body) => {
    expect(errors(Shared, body)).toEqual(errors(ByHand, body));
  });

  it('trim the email and upper-case the role', () => {
    const shared = plainToInstance(Shared, { email: '  ada@example.com ', role: 'admin' });
    expect(shared).toMatchObject({ email: 'ada@example.com', role: 'ADMIN' });
    expect(validateSync(shared)).toEqual([]);
  });
});
