// The org e2e tests run the real auth service next to org: it answers the synchronous account
// look-ups (`auth.rpc.users.*`, docs/architecture.md § Consistency), issues the access tokens and
// publishes the `auth.user.*` events that feed org's user directory. Apps never import apps in
// production code; this test-only file is the one place org's tests reach into auth.
/* eslint-disable @nx/enforce-module-boundaries */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@wp/config';
import { createAuthApp } from '../../../auth/src/auth.app.js';
import { authConfigSchema } from '../../../auth/src/config/auth.config.js';
import { authDataSource } from '../../../auth/src/database/data-source.js';
/* eslint-enable @nx/enforce-module-boundaries */

export { authDataSource };

/** Creates (not yet initialized) the auth app for an environment's variables. */
export function createAuthService(env: Record<string, string>): Promise<NestFastifyApplication> {
  return createAuthApp(loadConfig(authConfigSchema, env));
}
