// Prints one plain line `N passed, N failed` at the end of a run (what CI reads) and, when
// JEST_SUMMARY_FILE is set, writes `N N` there for .ci/run to combine with its other gates.
const { writeFileSync } = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\n${results.numPassedTests} passed, ${failed} failed\n`);
    const file = process.env.JEST_SUMMARY_FILE;
    if (file) writeFileSync(file, `${results.numPassedTests} ${failed}\n`);
  }
}
module.exports = SummaryReporter;
