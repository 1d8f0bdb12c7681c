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
    expect(importFindings('libs/payments/src/back-import.ts', "import { restEdge } from '../../../apps/api/src/rest-edge';\nexport const x = restEdge;\n")).toEqual([
      expect.stringContaining('never import an app'),
    ]);
    expect(importFindings('apps/worker/src/back-import.ts', "import { restEdge } from '../../api/src/rest-edge';\nexport const x = restEdge;\n")).toEqual([
      expect.stringContaining("never the API's files"),
    ]);
  });

  it('lets a library import the floors below it', () => {
    expect(importFindings('libs/payments/src/forward-import.ts', "import { streams } from '@app/domain';\nimport { CommandRunner } from '@app/infrastructure';\nexport const x = [streams, CommandRunner];\n")).toEqual([]);
  });
});

/** The same rule inside apps/api (eslint.config.mjs API_FLOORS): the HTTP kit at the bottom, features above, faces on top. */
describe("apps/api's floors", () => {
  it('refuses a folder importing one beside or above it, from any depth', () => {
    expect(importFindings('apps/api/src/http/back-import.ts', "import { AuditModule } from '../audit/audit.module';\nexport const x = AuditModule;\n")).toEqual([
      expect.stringContaining('apps/api/src/http is on floor 0'),
    ]);
    expect(importFindings('apps/api/src/transfers/back-import.ts', "import { AuditModule } from '../audit/audit.module';\nexport const x = AuditModule;\n")).toEqual([
      expect.stringContaining('apps/api/src/transfers is on floor 1'),
    ]);
    expect(importFindings('apps/api/src/escrows/create-escrow/back-import.ts', "import { AuditController } from '../../audit/audit.controller';\nexport const x = AuditController;\n")).toEqual([
      expect.stringContaining('apps/api/src/escrows is on floor 4'),
    ]);
  });

  it('lets a folder import its own files and the floors below it', () => {
    expect(
      importFindings(
        'apps/api/src/escrows/create-escrow/forward-import.ts',
        "import { ApiError } from '@app/http';\nimport { presentOrder } from '../../orders/order.presenter';\nimport { presentEscrow } from '../escrow.presenter';\nexport const x = [ApiError, presentOrder, presentEscrow];\n",
      ),
    ).toEqual([]);
  });
});

/** libs/features' folders keep the same floors (eslint.config.mjs FEATURE_FLOORS): a feature builds only on those below it. */
describe("libs/features' floors", () => {
  it('refuses a feature importing one beside or above it, by its entry or by path', () => {
    expect(importFindings('libs/features/src/orders/back-import.ts', "import { EscrowsFeatureModule } from '@app/features/escrows';\nexport const x = EscrowsFeatureModule;\n")).toEqual([
      expect.stringContaining('libs/features/src/orders is on floor 1 of the features'),
    ]);
    expect(importFindings('libs/features/src/commissions/back-import.ts', "import { CreateEscrowHandler } from '../escrows/create-escrow/create-escrow.handler';\nexport const x = CreateEscrowHandler;\n")).toEqual([
      expect.stringContaining('libs/features/src/commissions is on floor 2 of the features'),
    ]);
    expect(importFindings('libs/features/src/payables/back-import.ts', "import { ListOrdersController } from '../../../../apps/api/src/orders/list-orders/list-orders.controller';\nexport const x = ListOrdersController;\n")).toEqual([
      expect.stringContaining('never import an app'),
    ]);
  });

  it('lets a feature import the features below it and its own files', () => {
    expect(
      importFindings(
        'libs/features/src/escrows/create-escrow/forward-import.ts',
        "import { commissionsInForce } from '@app/features/commissions';\nimport { CreateEscrowCommand } from './create-escrow.command';\nexport const x = [commissionsInForce, CreateEscrowCommand];\n",
      ),
    ).toEqual([]);
  });
});

/** The faces' wing (apps/web) and the REST edge (apps/api): neither imports the other's files, but for apps/api/src/app.factory.ts, where they meet (eslint.config.mjs wingRules, WINGS_MEET). */
describe('the faces and the REST edge', () => {
  it("refuses the faces importing the API's files, and the API importing the faces'", () => {
    expect(importFindings('apps/web/src/dashboard/payouts/back-import.ts', "import { PayoutsModule } from '../../../../api/src/payouts/payouts.module';\nexport const x = PayoutsModule;\n")).toEqual([
      expect.stringContaining("never the API's files"),
    ]);
    expect(importFindings('apps/web/src/kit/back-import.ts', "import { restEdge } from '../../../api/src/rest-edge';\nexport const x = restEdge;\n")).toEqual([
      expect.stringContaining("never the API's files"),
    ]);
    expect(importFindings('apps/web/src/index.ts', "import { restEdge } from '../../api/src/rest-edge';\nexport const x = restEdge;\n")).toEqual([
      expect.stringContaining("never the API's files"),
    ]);
    expect(importFindings('apps/api/src/http/openapi/back-import.ts', "import { CsrfGuard } from '../../../../web/src/kit/csrf';\nexport const x = CsrfGuard;\n")).toEqual([
      expect.stringContaining("never imports the faces' wing"),
    ]);
    expect(importFindings('apps/api/src/escrows/create-escrow/back-import.ts', "import { displayEtb } from '../../../../web/src/kit/format';\nexport const x = displayEtb;\n")).toEqual([
      expect.stringContaining("never imports the faces' wing"),
    ]);
    expect(importFindings('apps/api/src/back-import.ts', "import { FacesModule } from '../../web/src';\nexport const x = FacesModule;\n")).toEqual([
      expect.stringContaining("never imports the faces' wing"),
    ]);
    expect(importFindings('apps/api/src/rest-edge.ts', "import { FacesModule } from '../../web/src';\nexport const x = FacesModule;\n")).toEqual([
      expect.stringContaining("never imports the faces' wing"),
    ]);
    expect(importFindings('apps/api/src/main.ts', "import { facesWing } from '../../web/src';\nexport const x = facesWing;\n")).toEqual([
      expect.stringContaining("never imports the faces' wing"),
    ]);
    expect(importFindings('libs/http/src/service/back-import.ts', "import { facesWing } from '../../../../apps/web/src';\nexport const x = facesWing;\n")).toEqual([
      expect.stringContaining('never import an app'),
    ]);
    expect(importFindings('apps/api/src/app.factory.ts', "import { DashboardModule } from '../../web/src/dashboard/dashboard.module';\nexport const x = DashboardModule;\n")).toEqual([
      expect.stringContaining('by their entry (apps/web/src/index.ts) only'),
    ]);
    expect(importFindings('libs/contract/src/back-import.ts', "import { FacesModule } from '../../../apps/web/src';\nexport const x = FacesModule;\n")).toEqual([
      expect.stringContaining('never import an app'),
    ]);
    expect(importFindings('apps/worker/src/back-import.ts', "import { FacesModule } from '../../web/src';\nexport const x = FacesModule;\n")).toEqual([
      expect.stringContaining("nor the faces'"),
    ]);
  });

  it('lets the faces import their own files and the libraries, and the one file where the wings meet mount the faces by their entry', () => {
    expect(
      importFindings(
        'apps/web/src/dashboard/payouts/forward-import.ts',
        "import { etb } from '../../kit/format';\nimport { parseLimit } from '@app/http';\nimport { RequestPayoutCommand } from '@app/contract';\nexport const x = [etb, parseLimit, RequestPayoutCommand];\n",
      ),
    ).toEqual([]);
    expect(importFindings('apps/api/src/app.factory.ts', "import { facesWing } from '../../web/src';\nexport const x = facesWing;\n")).toEqual([]);
  });
});
