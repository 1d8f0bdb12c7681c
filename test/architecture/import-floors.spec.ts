import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** What `npm run lint` says of one file with this text at this path: the messages of the import rule. */
function importFindings(path: string, text: string): string[] {
  let output: string;
  try {
    output = execFileSync(process.execPath, [join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--format', 'json', '--stdin', '--stdin-filename', path], { cwd: ROOT, input: text, encoding: 'utf8' });
  } catch (error) {
    // ESLint exits 1 when it finds something; its report is still on stdout.
    output = (error as { stdout: string }).stdout;
  }
  const [result] = JSON.parse(output) as Array<{ messages: Array<{ ruleId: string | null; message: string }> }>;
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

/** The lint rule that keeps the libraries' floors (eslint.config.mjs): a deliberate back-import fails the build. */
describe('import floors', () => {
  it('refuses a library importing one above it, by alias or by path, and any library importing an app', () => {
    expect(importFindings('libs/domain/src/back-import.ts', "import { PAYMENT_PROVIDER } from '@app/payments';\nexport const x = PAYMENT_PROVIDER;\n")).toEqual([
      expect.stringContaining('domain is on floor 0'),
    ]);
    expect(importFindings('libs/read-models/src/back-import.ts', "import { CommandRunner } from '../../infrastructure/src/command-runner';\nexport const x = CommandRunner;\n")).toEqual([
      expect.stringContaining('read-models is on floor 3'),
    ]);
    expect(importFindings('libs/payments/src/back-import.ts', "import { AppModule } from '../../../apps/api/src/app.module';\nexport const x = AppModule;\n")).toEqual([
      expect.stringContaining('never import an app'),
    ]);
    expect(importFindings('apps/worker/src/back-import.ts', "import { AppModule } from '../../api/src/app.module';\nexport const x = AppModule;\n")).toEqual([
      expect.stringContaining("never the API's files"),
    ]);
  });

  it('lets a library import the floors below it', () => {
    expect(importFindings('libs/payments/src/forward-import.ts', "import { streams } from '@app/domain';\nimport { CommandRunner } from '@app/infrastructure';\nexport const x = [streams, CommandRunner];\n")).toEqual([]);
  });
});
