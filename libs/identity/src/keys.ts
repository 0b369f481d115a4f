// `@wp/identity/keys`: the email, phone and text normalisers alone — without the
// class-validator decorator (is-email-address.ts) and the look-alike check (ens-normalize), which
// `@wp/identity` also loads. For the migrations that compute stored keys: the operator CLI's
// `migrations:status` loads their modules (docs/operations.md § Operator CLI).
export * from './email.js';
export * from './phone.js';
export * from './text.js';
