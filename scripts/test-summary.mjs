// Prints "N passed, N failed[, N skipped]" from vitest's JSON results; exits non-zero on any failure or when the
// results are missing (typecheck or lint failed before the tests ran, or vitest crashed).
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-results.json';
let results;
try {
  results = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.log('0 passed, 1 failed');
  console.error(`no test results in ${file}: the typecheck, the lint or the test run itself failed (see above)`);
  process.exit(1);
}
const passed = results.numPassedTests ?? 0;
// A file that fails to load fails as a suite with no failed test in it: count such suites as failures.
const failedTests = results.numFailedTests ?? 0;
const failed = failedTests > 0 ? failedTests : (results.numFailedTestSuites ?? 0);
const skipped = (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || results.success === false || passed === 0 ? 1 : 0);
