// Prints "N passed, N failed[, N skipped]" from vitest's JSON results, summed over every run given, as the last
// line; before it, one line per run that failed, naming it. Exits non-zero on any failure, or when a run's results
// are missing (its typecheck or lint failed before the tests ran, or vitest crashed).
//
//   node scripts/test-summary.mjs [.vitest-results.json]
//   node scripts/test-summary.mjs "Node 20=.vitest-results.json" "Node 24=/tmp/copy/.vitest-results.json"
import { readFileSync } from 'node:fs';

const runs = (process.argv.length > 2 ? process.argv.slice(2) : ['.vitest-results.json']).map((arg) => {
  const at = arg.indexOf('=');
  return at > 0 ? { label: arg.slice(0, at), file: arg.slice(at + 1) } : { label: undefined, file: arg };
});

let passed = 0;
let failed = 0;
let skipped = 0;
let bad = false;
for (const { label, file } of runs) {
  const name = label ?? file;
  let results;
  try {
    results = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    failed += 1;
    bad = true;
    console.error(
      `${name}: no test results in ${file}: the typecheck, the lint or the test run itself failed (see above)`,
    );
    continue;
  }
  const runPassed = results.numPassedTests ?? 0;
  // A file that fails to load fails as a suite with no failed test in it: count such suites as failures.
  const failedTests = results.numFailedTests ?? 0;
  const runFailed = failedTests > 0 ? failedTests : (results.numFailedTestSuites ?? 0);
  passed += runPassed;
  failed += runFailed;
  skipped += (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
  if (runFailed > 0 || results.success === false || runPassed === 0) {
    bad = true;
    if (runs.length > 1) console.log(`${name}: ${runPassed} passed, ${runFailed} failed`);
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(bad ? 1 : 0);
