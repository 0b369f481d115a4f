// Lets plain Node run this repository's TypeScript sources, for child processes started by tests
// and the benchmark: `node -r ./scripts/ts-register.js apps/wallet/src/main.ts`. Transpiles .ts
// with SWC on require (the settings jest uses; no type checking), maps `@wp/<lib>` to
// libs/<lib>/src/index.ts (a subpath `@wp/<lib>/<entry>` to libs/<lib>/src/<entry>.ts) and
// `./x.js` imports to `./x.ts`, as the jest preset does.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join, resolve } = require('node:path');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const root = join(__dirname, '..');
const resolveFilename = Module._resolveFilename;

Module._resolveFilename = function (request, parent, ...rest) {
  if (request.startsWith('@wp/')) {
    const [lib, entry = 'index'] = request.slice(4).split('/');
    const source = join(root, 'libs', lib, 'src', `${entry}.ts`);
    if (existsSync(source)) return source;
  } else if (
    request.startsWith('.') &&
    request.endsWith('.js') &&
    parent?.filename?.endsWith('.ts')
  ) {
    const source = resolve(dirname(parent.filename), `${request.slice(0, -3)}.ts`);
    if (existsSync(source)) return source;
  }
  return resolveFilename.call(this, request, parent, ...rest);
};

require.extensions['.ts'] = function compile(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    sourceMaps: 'inline',
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
    },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
