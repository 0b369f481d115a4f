// Import rules inside the repository, checked by `npm run lint:deps` (a CI gate of its own,
// docs/architecture.md § Inner layering). Between projects, `@nx/enforce-module-boundaries`
// (eslint) already holds: apps never import apps. This file holds what Nx cannot see: the order
// of the folders inside each app, and no import cycle anywhere in apps/*/src or libs/*/src.
//
// LAYERS is the whole design in one place. Each app lists its layers bottom to top; a layer is
// one or more units (a folder under src/, or a single file under src/ named with its `.ts`).
// A unit may import itself and any unit of a layer *below* its own, nothing else: not a unit
// of its own layer (siblings stay independent) and nothing above. Every file under an app's
// src/ belongs to exactly one unit; a new folder must be given its place here first.
//
// Cycles: type-only imports (`import type`) count. A type shared both ways is a dependency
// both ways in the design even when the compiler erases it, and every cycle found here was
// broken by moving the shared type down, so no exception is needed.

/** Per app, bottom (generic helpers) to top (composition: database registry, app module, mains). */
const LAYERS = {
  analytics: [
    ['config'],
    ['modules/common'],
    ['modules/storage'],
    ['modules/pricing', 'modules/projects'],
    ['modules/ingestion', 'modules/traces'],
    ['modules/otel', 'modules/metrics'],
    ['migrations'],
    ['database'],
    ['app.module.ts'],
    ['openapi-metadata.ts'],
    ['analytics.app.ts'],
    ['main.ts', 'migrate.ts'],
  ],
  auth: [
    ['cli-args.ts'],
    ['config'],
    [
      'modules/passwords',
      'modules/rate-limits',
      'modules/audit',
      'modules/notifications',
      'modules/jwks',
      'modules/applications',
    ],
    ['modules/accounts'],
    ['modules/two-factor'],
    ['modules/tokens'],
    ['modules/sentinel'],
    ['modules/federation'],
    ['modules/sessions'],
    ['modules/passkeys'],
    ['modules/activation'],
    ['modules/password-reset'],
    ['modules/users'],
    ['migrations'],
    ['database'],
    ['app.module.ts'],
    ['openapi-metadata.ts'],
    ['auth.app.ts', 'migrations-status.ts'],
    ['applications.cli.ts'],
    ['main.ts', 'migrate.ts', 'cli.ts'],
  ],
  gateway: [
    ['config'],
    ['proxy'],
    ['docs'],
    ['gateway.module.ts'],
    ['gateway.app.ts'],
    ['main.ts'],
  ],
  org: [
    ['config'],
    ['common'],
    ['modules/secrets', 'modules/identity', 'modules/users'],
    ['modules/tenants'],
    ['modules/memberships'],
    ['modules/access'],
    ['modules/webhooks'],
    ['modules/audit'],
    ['modules/project-credentials'],
    ['modules/api-keys', 'modules/llm-keys', 'modules/sentinel-passes', 'modules/security-policy'],
    ['modules/projects'],
    ['modules/organizations'],
    ['modules/invitations'],
    ['modules/user-settings'],
    ['modules/members'],
    ['modules/project-members'],
    ['modules/sso'],
    ['migrations'],
    ['database'],
    ['app.module.ts'],
    ['openapi-metadata.ts'],
    ['org.app.ts'],
    ['main.ts', 'migrate.ts'],
  ],
  wallet: [
    ['config'],
    ['common'],
    ['modules/directory', 'modules/memberships'],
    ['modules/assets'],
    ['modules/wallets'],
    ['modules/ledger'],
    ['modules/transactions'],
    ['modules/transfers'],
    ['migrations'],
    ['database'],
    ['app.module.ts'],
    ['openapi-metadata.ts'],
    ['wallet.app.ts'],
    ['main.ts', 'migrate.ts'],
  ],
};

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The path pattern of one unit: a folder (with everything under it) or one file and its spec. */
const unitPath = (app, unit) =>
  unit.endsWith('.ts')
    ? `^apps/${app}/src/${escape(unit.slice(0, -3))}(\\.spec)?\\.ts$`
    : `^apps/${app}/src/${escape(unit)}/`;

const describeOrder = (app) =>
  `apps/${app}/src, bottom to top: ` + LAYERS[app].map((layer) => layer.join(' + ')).join(' < ');

function layeringRules() {
  const rules = [];
  for (const [app, layers] of Object.entries(LAYERS)) {
    layers.forEach((layer, index) => {
      const notBelow = layers.slice(index).flat();
      for (const unit of layer) {
        const forbidden = notBelow.filter((other) => other !== unit);
        if (forbidden.length === 0) continue;
        rules.push({
          name: `layer-${app}`,
          comment:
            `${app}/${unit} may import only the layers below its own (${describeOrder(app)}). ` +
            'Move the shared piece down, or let the lower unit declare an interface that the ' +
            'upper one implements (docs/architecture.md § Inner layering).',
          severity: 'error',
          from: { path: unitPath(app, unit) },
          to: { path: forbidden.map((other) => unitPath(app, other)) },
        });
      }
    });
    const everyUnit = layers.flat().map((unit) => unitPath(app, unit));
    rules.push({
      name: `layer-${app}-unplaced`,
      comment: `Every file under apps/${app}/src belongs to a unit of LAYERS.${app} in .dependency-cruiser.js.`,
      severity: 'error',
      from: { path: `^apps/${app}/src/`, pathNot: everyUnit },
      to: {},
    });
    rules.push({
      name: `layer-${app}-unplaced`,
      comment: `Every file under apps/${app}/src belongs to a unit of LAYERS.${app} in .dependency-cruiser.js.`,
      severity: 'error',
      from: {},
      to: { path: `^apps/${app}/src/`, pathNot: everyUnit },
    });
  }
  return rules;
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import cycle in any app or lib, type-only imports included: a cycle means two ' +
        'pieces cannot be understood, tested or placed in a layer apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve cannot be checked against the layers.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    ...layeringRules(),
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    // Application and library code; tests may reach across layers to set a scene.
    includeOnly: '^(apps|libs)/[^/]+/src/',
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
