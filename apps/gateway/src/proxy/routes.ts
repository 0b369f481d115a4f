import type { GatewayConfig } from '../config/gateway.config.js';

export type UpstreamService = 'auth' | 'org' | 'wallet' | 'analytics';

export interface ProxyRoute {
  /** Path prefix at the gateway and at the service (forwarded unchanged). */
  prefix: string;
  service: UpstreamService;
  /**
   * `required`: Api-Key needed (docs/api.md § Authentication 1); `optional`: checked when sent;
   * `none`: public infrastructure (JWKS) and browser navigations (`/oauth/authorize`, `/oauth/callback`).
   */
  apiKey: 'required' | 'optional' | 'none';
}

/** Routing by first path segment (docs/architecture.md § Shape). */
export function proxyRoutes(config: GatewayConfig): ProxyRoute[] {
  const analyticsKey = config.ANALYTICS_REQUIRE_API_KEY ? 'required' : 'optional';
  return [
    { prefix: '/v1/api/users', service: 'auth', apiKey: 'required' },
    { prefix: '/v1/api/oauth/jwks.json', service: 'auth', apiKey: 'none' },
    // Browser navigations of sign-in with an OpenID provider (docs/auth.md): no Api-Key header.
    { prefix: '/v1/api/oauth/authorize', service: 'auth', apiKey: 'none' },
    { prefix: '/v1/api/oauth/callback', service: 'auth', apiKey: 'none' },
    { prefix: '/v1/api/oauth', service: 'auth', apiKey: 'required' },
    { prefix: '/v1/api/organizations', service: 'org', apiKey: 'required' },
    { prefix: '/v1/api/me', service: 'org', apiKey: 'required' },
    { prefix: '/v1/api/user_settings', service: 'org', apiKey: 'required' },
    { prefix: '/v1/api/wallets', service: 'wallet', apiKey: 'required' },
    { prefix: '/v1/api/wallet_transfers', service: 'wallet', apiKey: 'required' },
    { prefix: '/api/public', service: 'analytics', apiKey: analyticsKey },
  ];
}

/** The base URLs of a service: one, or its replicas (docs/architecture.md § Shape). */
export function upstreamUrls(config: GatewayConfig, service: UpstreamService): string[] {
  switch (service) {
    case 'auth':
      return config.AUTH_UPSTREAM_URL;
    case 'org':
      return config.ORG_UPSTREAM_URL;
    case 'wallet':
      return config.WALLET_UPSTREAM_URL;
    case 'analytics':
      return config.ANALYTICS_UPSTREAM_URL;
  }
}
