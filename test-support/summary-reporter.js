// Prints one plain line `N passed, N failed` at the end of a run (what CI reads), followed by
// `, M skipped (group: reason, …)` when anything was skipped, every skip named (README § Tests;
// test-support/skips.js), and above it one line per skipped file or part. When
// JEST_SUMMARY_FILE is set, writes `N N` there for .ci/run to combine with its other gates.
const { writeFileSync } = require('node:fs');
const { relative } = require('node:path');
const { readSkips, summarize } = require('./skips.js');

const ROOT = `${__dirname}/..`;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const records = readSkips();
    const explained = new Set(records.map((r) => r.file));
    let unexplained = 0;
    for (const file of results.testResults) {
      const pending = file.numPendingTests + file.numTodoTests;
      if (pending && !explained.has(relative(ROOT, file.testFilePath))) unexplained += pending;
    }
    const out = [];
    if (records.length) {
      out.push('', 'Skipped:');
      for (const r of records)
        out.push(`  ${r.file}${r.part ? ` › ${r.part}` : ''}: ${r.group}: ${r.reason}`);
    }
    const tail = skipped ? `, ${skipped} skipped${summarize(records, unexplained)}` : '';
    out.push('', `${results.numPassedTests} passed, ${failed} failed${tail}`, '');
    process.stdout.write(out.join('\n'));
    const file = process.env.JEST_SUMMARY_FILE;
    if (file) writeFileSync(file, `${results.numPassedTests} ${failed}\n`);
  }
}
module.exports = SummaryReporter;
