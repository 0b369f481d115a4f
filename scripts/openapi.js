// `npm run openapi`: writes docs/openapi.json, the document the gateway publishes at
// /docs/openapi.json, built offline (test/support/openapi-document.ts). Run after
// scripts/openapi-metadata.js; a test fails when the committed file is stale.
'use strict';
require('./ts-register.js');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { generateOpenApiDocument, OPENAPI_FILE } = require('../test/support/openapi-document.ts');

generateOpenApiDocument()
  .then((document) => {
    writeFileSync(join(__dirname, '..', OPENAPI_FILE), `${JSON.stringify(document, null, 2)}\n`);
    process.exit(0);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
