import { DomainError } from '@wp/http';

export type UserSettingsErrorCode =
  'ORGANIZATION_NOT_ACCESSIBLE' | 'PROJECT_NOT_ACCESSIBLE' | 'TOO_MANY_ONBOARDING_STEPS';

/**
 * 422 `ORGANIZATION_NOT_ACCESSIBLE`: a settings body names an organization the caller does not
 * see in their sidebar. Unknown and foreign organizations answer exactly alike (no existence
 * leak, docs/architecture.md § Identity and access).
 */
export class OrganizationNotAccessibleError extends DomainError {
  constructor(pointer: string) {
    super('rule', 'ORGANIZATION_NOT_ACCESSIBLE', 'Organization not accessible', {
      detail: 'No organization with this id is accessible to you.',
      source: { pointer },
    });
  }
}

/**
 * 422 `PROJECT_NOT_ACCESSIBLE`: a settings body names a project the caller cannot access (or not
 * in the given organization); unknown, foreign, denied and deleted projects answer alike.
 */
export class ProjectNotAccessibleError extends DomainError {
  constructor(pointer: string) {
    super('rule', 'PROJECT_NOT_ACCESSIBLE', 'Project not accessible', {
      detail: 'No project with this id is accessible to you here.',
      source: { pointer },
    });
  }
}

/** 422 `TOO_MANY_ONBOARDING_STEPS`: a new step id beyond the per-client bound. */
export class TooManyOnboardingStepsError extends DomainError {
  constructor(max: number) {
    super('rule', 'TOO_MANY_ONBOARDING_STEPS', 'Too many onboarding steps', {
      detail: `At most ${max} onboarding steps are kept per client.`,
    });
  }
}
