import { ValidateBy, type ValidationOptions } from 'class-validator';
import { parseEmail } from './email.js';
import { lookAlikeProblem } from './look-alikes.js';

/**
 * class-validator rule for an e-mail address a person is invited or added with: one that
 * registration would accept (docs/auth.md § Usernames) — an address by `parseEmail` (fullwidth
 * letters, any case and Unicode domains allowed: they are spellings of one address) and no
 * look-alike (`lookAlikeProblem`: invisible characters, mixed or confusable scripts). The message
 * says which rule failed.
 */
export function IsEmailAddress(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEmailAddress',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && parseEmail(value) !== null && !lookAlikeProblem(value),
        defaultMessage: (args) => {
          const value: unknown = args?.value;
          const problem = typeof value === 'string' ? lookAlikeProblem(value) : null;
          return problem && parseEmail(value as string) ? problem : 'must be an email address';
        },
      },
    },
    options,
  );
}
