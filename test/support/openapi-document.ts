import { loadConfig } from '@wp/config';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { buildOpenApiDocument, type OpenApiMetadata } from '@wp/platform';
import { TestEnvironment } from '@wp/testing';
import { createAnalyticsApp } from '../../apps/analytics/src/analytics.app.js';
import { analyticsConfigSchema } from '../../apps/analytics/src/config/analytics.config.js';
import { createAuthApp } from '../../apps/auth/src/auth.app.js';
import { authConfigSchema } from '../../apps/auth/src/config/auth.config.js';
import * as authMetadata from '../../apps/auth/src/openapi-metadata.js';
import { gatewayConfigSchema } from '../../apps/gateway/src/config/gateway.config.js';
import {
  mergeOpenApiDocuments,
  type OpenApiDocument,
} from '../../apps/gateway/src/docs/openapi-merge.js';
import { proxyRoutes } from '../../apps/gateway/src/proxy/routes.js';
import * as analyticsMetadata from '../../apps/analytics/src/openapi-metadata.js';
import { orgConfigSchema } from '../../apps/org/src/config/org.config.js';
import * as orgMetadata from '../../apps/org/src/openapi-metadata.js';
import { createOrgApp } from '../../apps/org/src/org.app.js';
import { walletConfigSchema } from '../../apps/wallet/src/config/wallet.config.js';
import * as walletMetadata from '../../apps/wallet/src/openapi-metadata.js';
import { createWalletApp } from '../../apps/wallet/src/wallet.app.js';

/** Where `npm run openapi` writes the published document (checked for staleness by a test). */
export const OPENAPI_FILE = 'docs/openapi.json';

/**
 * The document the gateway publishes at `/docs/openapi.json`, built without a server: each
 * service's Nest application in preview mode (routes resolved, nothing connects), its document
 * from its controllers and generated plugin metadata, merged as the gateway merges them.
 */
export type PreviewServices = Record<
  'auth' | 'org' | 'wallet' | 'analytics',
  { app: NestFastifyApplication; metadata: OpenApiMetadata }
>;

/** Each service's Nest application in preview mode: routes resolved, nothing connects. */
export async function createPreviewApps(): Promise<PreviewServices> {
  const env = {
    ...new TestEnvironment().env,
    AUTH_DATABASE_URL: 'postgres://offline/none',
    ORG_DATABASE_URL: 'postgres://offline/none',
    WALLET_DATABASE_URL: 'postgres://offline/none',
    ANALYTICS_DATABASE_URL: 'postgres://offline/none',
  };
  const preview = { preview: true };
  return {
    auth: {
      app: await createAuthApp(loadConfig(authConfigSchema, env), preview),
      metadata: authMetadata,
    },
    org: {
      app: await createOrgApp(loadConfig(orgConfigSchema, env), preview),
      metadata: orgMetadata,
    },
    wallet: {
      app: await createWalletApp(loadConfig(walletConfigSchema, env), preview),
      metadata: walletMetadata,
    },
    analytics: {
      app: await createAnalyticsApp(loadConfig(analyticsConfigSchema, env), preview),
      metadata: analyticsMetadata,
    },
  };
}

/**
 * The document the gateway publishes at `/docs/openapi.json`, built without a server: each
 * service's document from its preview application ({@link createPreviewApps}) and generated
 * plugin metadata, merged as the gateway merges them.
 */
export async function generateOpenApiDocument(
  services?: PreviewServices,
): Promise<OpenApiDocument> {
  const apps = services ?? (await createPreviewApps());
  const documents: Record<string, OpenApiDocument> = {};
  for (const [name, { app, metadata }] of Object.entries(apps)) {
    documents[name] = (await buildOpenApiDocument(app, name, metadata)) as OpenApiDocument;
  }
  const gateway = loadConfig(gatewayConfigSchema, new TestEnvironment().env);
  return mergeOpenApiDocuments(documents, proxyRoutes(gateway), []);
}
