// The test environment of every jest project (jest.preset.js): Node's, plus skipping with a
// stated reason the test files that need a server this run lacks (README § Tests).
//
// A file declares what it needs in its first docblock:
//   /** @needsServers redis nats: tests the Redis stores themselves */
// and a project for all its files with `testEnvironmentOptions: { needsServers, reason }`.
// When global setup found one of them missing (TEST_MISSING_SERVERS), every test of the file is
// marked skipped before the run starts (so no hook runs either) and the skip is recorded for the
// summary reporter (test-support/skips.js).
'use strict';
const { TestEnvironment: NodeEnvironment } = require('jest-environment-node');
const { lackLabel, missingServers, recordSkip } = require('./skips.js');

/** `redis nats: reason` → `{ needs: ['redis', 'nats'], reason }`. */
function parsePragma(value) {
  const text = Array.isArray(value) ? value.join(' ') : value;
  const colon = text.indexOf(':');
  if (colon < 0) throw new Error(`@needsServers wants "names: reason", got "${text}"`);
  return {
    needs: text.slice(0, colon).trim().split(/\s+/).filter(Boolean),
    reason: text.slice(colon + 1).trim(),
  };
}

function markSkipped(block) {
  block.mode = 'skip';
  for (const child of block.children) {
    if (child.type === 'describeBlock') markSkipped(child);
    else child.mode = 'skip';
  }
}

class ServersEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    const pragma = context.docblockPragmas?.needsServers;
    const options = config.projectConfig.testEnvironmentOptions ?? {};
    const declared = [];
    if (options.needsServers)
      declared.push({ needs: options.needsServers, reason: options.reason });
    if (pragma) declared.push(parsePragma(pragma));
    const missing = missingServers();
    for (const { needs, reason } of declared) {
      const lacking = needs.filter((s) => missing.includes(s));
      if (lacking.length) {
        this.skip = { file: context.testPath, part: null, group: lackLabel(missing), reason };
        // libs/testing's describeIf records no part of a file skipped as a whole.
        this.global.__TEST_FILE_SKIPPED__ = true;
        break;
      }
    }
  }

  async handleTestEvent(event, state) {
    if (event.name !== 'run_start' || !this.skip) return;
    markSkipped(state.rootDescribeBlock);
    recordSkip(this.skip);
  }
}

module.exports = ServersEnvironment;
