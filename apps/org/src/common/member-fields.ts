import { applyDecorators } from '@nestjs/common';
import { IsIn } from 'class-validator';
import { ROLES } from '@wp/contracts';
import { IsEmailAddress } from '@wp/identity';
import { Trim, UpperCase } from './transforms.js';

/*
 * Body fields that name a member, shared by the DTOs that add members, invite them and change
 * their roles. Each returns the decorators a DTO stacked by hand before, registered in the same
 * order: the validation pipe answers a field's last failed rule, and the OpenAPI document lists
 * constraints in rule order.
 */

/**
 * A person's email address: surrounding whitespace trimmed and an address `@wp/identity`
 * accepts (no look-alikes or invisible characters). DTOs write `@MaxLength(254)` (RFC 5321
 * § 4.5.3.1.3) above it: a literal there is what the OpenAPI plugin reads, in the place it had.
 */
export const EmailAddressField = (): PropertyDecorator => applyDecorators(IsEmailAddress(), Trim());

/**
 * An organization or project role (`OWNER`, `ADMIN`, `MEMBER`, `VIEWER`), accepted in either
 * case and answered upper case.
 */
export const RoleField = (): PropertyDecorator =>
  applyDecorators(IsIn(ROLES, { message: `must be one of ${ROLES.join(', ')}` }), UpperCase());
