// Marks dist/esm as ES modules and dist/cjs as CommonJS, so one package serves both
// `import` and `require` (package.json "exports").
'use strict';
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
writeFileSync(join(dist, 'esm', 'package.json'), '{ "type": "module" }\n');
writeFileSync(join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
