import { execSync } from 'node:child_process';
import { join } from 'node:path';

/** Process-level tests run the built service, as production does: build it once per test run. */
export default async function globalSetup(): Promise<void> {
  execSync('npx nest build api', { cwd: join(__dirname, '..', '..'), stdio: 'inherit' });
}
