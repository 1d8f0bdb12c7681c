import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Command } from 'commander';
import { ConfigError, loadConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { EVENT_STORE, EVENT_STORE_ENGINE, type EventStore, type EventStoreEngine, formatPosition, parsePosition, START } from '@app/event-store';
import { allMerchants, checkpoints, ProjectionProgress, projectionsFor, rebuildProjections, selectForRebuild } from '@app/read-models';
import { AuditLogReader, discrepanciesOf, isClean, isStatementProvider, STATEMENT_PROVIDERS } from '@app/audit';
import { LedgerReader } from '@app/read-models';
import { RegisterAuditorCommand, RegisterMerchantCommand, RegisterStaffMemberCommand, RevokeStaffKeyCommand, RotateApiSecretCommand, TenantModes } from '@app/onboarding';
import { ReconcileStatementCommand, sandboxStatement } from '@app/payments';
import { createCliContext } from './cli.module';
import { modeOf, requireMode } from './modes';
import { type Output, print, progressBar, table } from './output';
import { reconciliationReport, statementInput, StatementInputError } from './reconciliation';

const config = loadConfig({ ...process.env, ROLE: 'projector', DEMO_MERCHANT: 'false', READ_YOUR_WRITES_TIMEOUT_MS: '2000' });
/** A lag past this many events reads as this many: far behind, without reading the whole log. */
const LAG_COUNT_CAP = 10_000;
const cliActor = { actor: { type: 'admin' as const, id: `cli:${process.env.USER ?? 'operator'}` } };

/** Reads see the whole log: wait (bounded) for the read models to reach its last event. */
async function readModelsCaughtUp(context: INestApplicationContext): Promise<void> {
  const store = context.get<EventStore>(EVENT_STORE);
  const progress = context.get(ProjectionProgress);
  let head = progress.position;
  for (let page = await store.readAll(head, 1000); page.length > 0; page = await store.readAll(head, 1000)) head = page[page.length - 1].position;
  await progress.waitFor(head, 10_000);
}

async function withContext<T>(work: (context: INestApplicationContext) => Promise<T>): Promise<T> {
  const context = await createCliContext(config);
  try {
    await readModelsCaughtUp(context);
    return await work(context);
  } finally {
    await context.close();
  }
}

const program = new Command()
  .name('npm run cli --')
  .description('Operate the escrow ledger: merchants, auditors, staff, audit checks, the ledger, the event log, projections')
  .option('--json', 'print machine-readable JSON');
const output = (): Output => ({ json: Boolean(program.opts().json) });

const merchants = program.command('merchants').description('merchant accounts');
merchants
  .command('create')
  .requiredOption('--name <name>', 'merchant name')
  .description('register a merchant, its test and live tenants, and print their API and webhook secrets (shown once)')
  .action((options: { name: string }) =>
    withContext(async (context) => {
      const merchant = await context.get(CommandBus).execute(new RegisterMerchantCommand(options.name, cliActor));
      const { live } = merchant;
      print(
        output(),
        `test merchant        ${merchant.merchantId}\napi secret           ${merchant.apiSecret}\nwebhook secret       ${merchant.webhookSecret}\n` +
          `live merchant        ${live.merchantId}\nlive api secret      ${live.apiSecret}\nlive webhook secret  ${live.webhookSecret}`,
        merchant,
      );
    }),
  );
merchants
  .command('list')
  .description('list merchants, each tenant with its mode (test or live; undecided for one from before modes until the service has started)')
  .action(() =>
    withContext(async (context) => {
      const modes = context.get(TenantModes);
      const list = await Promise.all(
        (await allMerchants(context.get<SqlClient>(SQL_CLIENT))).map(async (m) => ({ merchantId: m.merchantId, name: m.name, mode: await modeOf(modes, m.merchantId), registeredAt: m.registeredAt.toISOString() })),
      );
      print(output(), table(list.map((m) => ({ ...m, mode: m.mode ?? 'undecided' }))), list);
    }),
  );
merchants
  .command('rotate-secret <merchantId>')
  .description("issue a new API secret for a merchant; the old one stops working")
  .action((merchantId: string) =>
    withContext(async (context) => {
      // The new key says its tenant's mode (sk_test_, sk_live_).
      await requireMode(context.get(TenantModes), merchantId);
      const apiSecret = await context.get(CommandBus).execute(new RotateApiSecretCommand(merchantId, cliActor));
      print(output(), `new api secret for ${merchantId}: ${apiSecret}`, { merchantId, apiSecret });
    }),
  );

program
  .command('auditors')
  .description('read-only audit keys')
  .command('create')
  .requiredOption('--name <name>', 'who the key is for')
  .description('create an auditor key (shown once)')
  .action((options: { name: string }) =>
    withContext(async (context) => {
      const auditor = await context.get(CommandBus).execute(new RegisterAuditorCommand(options.name, cliActor));
      print(output(), `auditor ${auditor.auditorId}\nkey ${auditor.auditorKey}`, auditor);
    }),
  );

const staff = program.command('staff').description("the operator's staff: each has an admin key of their own, and their decisions name them");
staff
  .command('create')
  .requiredOption('--name <name>', 'the staff member the key is for')
  .description('create a staff member and their admin key (shown once; sent as x-admin-key, or to sign in to the audit console)')
  .action((options: { name: string }) =>
    withContext(async (context) => {
      const member = await context.get(CommandBus).execute(new RegisterStaffMemberCommand(options.name, cliActor));
      print(output(), `staff ${member.staffId}\nkey ${member.staffKey}`, member);
    }),
  );
staff
  .command('revoke <staffId>')
  .description("revoke a staff member's key: it opens nothing from now on, and their console sessions end")
  .action((staffId: string) =>
    withContext(async (context) => {
      await context.get(CommandBus).execute(new RevokeStaffKeyCommand(staffId, cliActor));
      print(output(), `staff ${staffId}: key revoked`, { staffId, revoked: true });
    }),
  );

program
  .command('audit')
  .description('audit checks')
  .command('verify')
  .description('verify the hash chain of every stream')
  .action(() =>
    withContext(async (context) => {
      const bar = progressBar(output(), await context.get(AuditLogReader).count());
      const report = await context.get(AuditLogReader).verifyIntegrity((done) => bar.update(done));
      bar.stop();
      const human = report.ok
        ? `OK: ${report.eventsChecked} events in ${report.streamsChecked} streams, every link holds`
        : `BROKEN: ${report.firstBreak!.streamId} at revision ${report.firstBreak!.revision} (${report.firstBreak!.reason}); checked ${report.eventsChecked} events before it`;
      print(output(), human, report);
      if (!report.ok) process.exitCode = 1;
    }),
  );

program
  .command('ledger')
  .description('the double-entry ledger')
  .command('trial-balance')
  .description("total debits and credits of one mode's books, which must be equal, and each of its accounts")
  .requiredOption('--mode <mode>', 'whose books: test or live (never the two added)')
  .action((options: { mode: string }) =>
    withContext(async (context) => {
      if (options.mode !== 'test' && options.mode !== 'live') throw new ConfigError('--mode must be test or live');
      const trial = { mode: options.mode, ...(await context.get(LedgerReader).trialBalance(options.mode)) };
      const human = `${table(trial.accounts as unknown as Record<string, unknown>[])}\n\ndebits ${trial.totalDebits} ETB, credits ${trial.totalCredits} ETB: ${trial.balanced ? 'balanced' : 'NOT BALANCED'}`;
      print(output(), human, trial);
      if (!trial.balanced) process.exitCode = 1;
    }),
  );

program
  .command('events')
  .description('the event log')
  .command('tail')
  .option('--from <position>', 'start after this position ("start" for the whole log); default: now')
  .description('follow the log live (Ctrl-C to stop)')
  .action((options: { from?: string }) =>
    withContext(async (context) => {
      const store = context.get<EventStore>(EVENT_STORE);
      let from = options.from === 'start' ? START : options.from ? parsePosition(options.from) : undefined;
      if (options.from && !from) throw new ConfigError('--from must be "start" or a position such as 812-1043');
      if (!from) {
        from = START;
        for (let page = await store.readAll(from, 1000); page.length > 0; page = await store.readAll(from, 1000)) from = page[page.length - 1].position;
      }
      const subscription = store.subscribeToAll({
        from,
        onEvents: async (events) => {
          for (const e of events) {
            const line = { position: formatPosition(e.position), recordedAt: e.recordedAt.toISOString(), streamId: e.streamId, revision: e.revision.toString(), type: e.type, data: e.data };
            process.stdout.write(output().json ? `${JSON.stringify(line)}\n` : `${line.position}  ${line.recordedAt}  ${line.streamId}#${line.revision}  ${line.type}\n`);
          }
        },
      });
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await subscription.stop();
    }),
  );

const projections = program.command('projections').description('read models');
projections
  .command('status')
  .description('where each follower of the log stands, and how far behind it is')
  .action(() =>
    withContext(async (context) => {
      const store = context.get<EventStore>(EVENT_STORE);
      // Through the event store port, so it holds on PostgreSQL and on KurrentDB alike; counted up to a cap.
      const list = await Promise.all(
        (await checkpoints(context.get<SqlClient>(SQL_CLIENT))).map(async ({ name, position, updatedAt }) => {
          const behind = (await store.readAll(position, LAG_COUNT_CAP)).length;
          return { name, position: formatPosition(position), lagEvents: behind, updatedAt: updatedAt.toISOString() };
        }),
      );
      print(output(), `${table(list)}\n\nprojections: ${projectionsFor(context.get<EventStoreEngine>(EVENT_STORE_ENGINE)).map((p) => p.name).join(', ')}`, list);
    }),
  );
projections
  .command('rebuild [name]')
  .description('replay the whole log into fresh read-model tables and swap them in while the service runs')
  .action((name: string | undefined) =>
    withContext(async (context) => {
      const db = context.get<SqlClient>(SQL_CLIENT);
      const selected = selectForRebuild(projectionsFor(context.get<EventStoreEngine>(EVENT_STORE_ENGINE)), name ? [name] : []);
      const bar = progressBar(output(), await context.get(AuditLogReader).count());
      const started = Date.now();
      const done = await rebuildProjections(db, context.get<EventStore>(EVENT_STORE), config.databaseSchema, selected, (p) => bar.update(p.events));
      bar.stop();
      const seconds = (Date.now() - started) / 1000;
      const summary = { rebuilt: selected.map((p) => p.name), events: done.events, position: formatPosition(done.position), seconds };
      print(output(), `rebuilt ${summary.rebuilt.join(', ')} from ${done.events} events in ${seconds.toFixed(1)} s`, summary);
    }),
  );

program
  .command('provider-statement')
  .description("the settlement statement of one mode's provider for a day, as CSV: test mode's is the sandbox's, on every deployment (live mode's Chapa gives its own, from its dashboard)")
  .requiredOption('--mode <mode>', "whose provider: test (the sandbox) or live")
  .requiredOption('--date <day>', 'the Africa/Addis_Ababa day, such as 2026-11-25')
  .option('--out <file>', 'write it to this file instead of standard output')
  .action((options: { mode: string; date: string; out?: string }) =>
    statementInput(async () => {
      if (options.mode !== 'test' && options.mode !== 'live') throw new StatementInputError('--mode must be test or live');
      // Test money moves through the sandbox on every deployment, which keeps its books here; live money through the provider configured (docs/concepts/modes.md).
      if (options.mode === 'live') throw new StatementInputError(noLiveStatement(config.paymentProvider));
      await withContext(async (context) => {
        const csv = await sandboxStatement(context.get<SqlClient>(SQL_CLIENT), options.date);
        if (options.out) await writeFile(options.out, csv);
        else process.stdout.write(csv);
      });
    }),
  );

/** Why live mode's statement is not made here: the real provider keeps it, or there is no live money at all. */
function noLiveStatement(provider: typeof config.paymentProvider): string {
  return provider === 'sandbox'
    ? 'this deployment has no live provider (PAYMENT_PROVIDER=sandbox): no live money moves, so live mode has no statement'
    : `live mode's provider is ${provider}: download its statement from its dashboard`;
}

program
  .command('reconcile')
  .description("match a provider's statement to our provider movements of its day, record the run; exits 1 when anything does not match")
  .requiredOption('--provider <name>', 'sandbox or chapa')
  .requiredOption('--file <statement.csv>', "the provider's statement for one day")
  .option('--date <day>', 'the Africa/Addis_Ababa day it covers (default: the day its lines fall on)')
  .option('--by <name>', 'who is reconciling, as the record will name them (default: the operating-system user)')
  .action((options: { provider: string; file: string; date?: string; by?: string }) =>
    statementInput(async () => {
      if (!isStatementProvider(options.provider)) throw new StatementInputError(`--provider must be one of ${STATEMENT_PROVIDERS.join(', ')}`);
      const provider = options.provider;
      const file = await readFile(options.file);
      const by = options.by ?? process.env.USER ?? userInfo().username;
      await withContext(async (context) => {
        let bar: ReturnType<typeof progressBar> | undefined;
        const run = await context.get(CommandBus).execute(
          new ReconcileStatementCommand(provider, file, { via: 'cli', name: by }, { actor: { type: 'admin', id: `cli:${by}` } }, options.date, (done, total) => {
            bar ??= progressBar(output(), total);
            bar.update(done);
          }),
        );
        bar?.stop();
        const clean = isClean(run.report.counts);
        const summary = { runId: run.runId, provider: run.provider, statementDay: run.statementDay, fileSha256: run.fileSha256, ranBy: by, clean, counts: run.report.counts, fees: run.report.fees, discrepancies: discrepanciesOf(run.report) };
        print(output(), reconciliationReport(run, by), summary);
        if (!clean) process.exitCode = 1;
      });
    }),
  );

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
