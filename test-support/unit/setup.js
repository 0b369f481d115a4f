// setupFilesAfterEnv of the unit tier (jest.unit.config.js): the guard of
// test-support/unit/no-network.js for every file, and a failed test for each attempt it refused.
'use strict';
const { install, takeAttempts } = require('./no-network.js');

install();

beforeEach(() => {
  takeAttempts();
});

afterEach(() => {
  const tried = takeAttempts();
  if (tried.length === 0) return;
  throw new Error(
    `This unit test tried to reach outside its process:\n  ${tried.join('\n  ')}\n` +
      'Use a fake of the interface instead, or mark the file `/** @integration reason */` ' +
      '(docs/decisions.md § Unit tier).',
  );
});
