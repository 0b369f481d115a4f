import type { Role } from '@wp/contracts';

/** The seeded projects of project-list.e2e-spec.ts, as the test wrote them. */
export type CallerRole = Role | 'DENIED' | null;

export interface Model {
  id: number;
  name: string;
  callerRole: CallerRole;
  members: number;
  tools: number;
  notebooks: number;
  wallet: boolean;
  createdAt: Date;
  updatedAt: Date;
  lastActivityAt: Date;
}

export const NAMES = [
  'Alpha',
  'alpha two',
  'Beta',
  'beta_test',
  'Gamma 100%',
  'gamma',
  'Delta',
  'DELTA force',
  'epsilon',
  'Zeta',
  'zeta-2',
  'Eta',
  'Theta',
  'iota',
  'Kappa',
  'lambda',
  'Mu',
  'nu',
  'Xi',
  'Omicron',
  'Pi',
  'Rho',
  'Sigma',
  'Tau',
  'Upsilon',
  'Phi',
  'Chi',
  'Psi',
  'Omega',
  'omega_x',
  'A_b',
  'A%b',
];
export const CALLER_ROLES: CallerRole[] = [
  null,
  'OWNER',
  'ADMIN',
  'MEMBER',
  'VIEWER',
  'DENIED',
  'MEMBER',
];
export const DAY = 24 * 3600_000;
export const BASE = Date.parse('2026-01-01T00:00:00.000Z');

/** Byte-wise order of two names, the order the test expects for `name` sorts. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
