import { type BeforeApplicationShutdown, Inject, Logger, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { hkdfSync } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SQL_CLIENT, type SqlClient } from '@app/database';
import { TENANT_MODES, type TenantModeReader } from '@app/credentials';
import type { MigrationSet } from '@app/infrastructure';
import { ApplyNotificationHandler } from './flow/apply-notification/apply-notification.handler';
import { ConfirmOtpHandler } from './flow/confirm-otp/confirm-otp.handler';
import { ExpirePaymentHandler } from './flow/expire-payment/expire-payment.handler';
import { InitiatePaymentHandler } from './flow/initiate-payment/initiate-payment.handler';
import { PaymentFlow } from './flow/payment-flow';
import { ProcessPayout } from './flow/process-payout/process-payout';
import { ProcessRefundHandler } from './flow/process-refund/process-refund.handler';
import { ReconcilePaymentHandler } from './flow/reconcile-payment/reconcile-payment.handler';
import { ReleaseDueHandler } from './flow/release-due/release-due.handler';
import { RestrictPastDueAccountHandler } from './flow/restrict-past-due-account/restrict-past-due-account.handler';
import { RequestScheduledPayoutHandler } from './flow/request-scheduled-payout/request-scheduled-payout.handler';
import { CHAPA_MIGRATIONS } from './chapa/chapa.migrations';
import { ChapaProvider } from './chapa/chapa-provider';
import { PaymentProviders } from './payment-providers';
import { PayoutBooksDeps } from './payouts/payout-books-deps';
import { SANDBOX_MIGRATIONS } from './sandbox/sandbox.migrations';
import { SandboxProvider } from './sandbox/sandbox-provider';
import { AdvanceTestClockHandler } from './test-clocks/advance-test-clock.handler';

/**
 * The tables the providers keep: the sandbox's, always (test mode's books beside ours), and the live
 * provider's when one is configured (Chapa's adapter keeps what it cannot ask again).
 */
export function providerMigrations(config: AppConfig): MigrationSet[] {
  const sandbox = { component: 'sandbox-provider', migrations: SANDBOX_MIGRATIONS };
  return config.paymentProvider === 'sandbox' ? [sandbox] : [sandbox, { component: 'chapa-provider', migrations: CHAPA_MIGRATIONS }];
}

/** Test mode's provider is the sandbox on every deployment; live mode's is PAYMENT_PROVIDER's, none for `sandbox`. */
function configuredProviders(config: AppConfig, adapterHost: HttpAdapterHost, db: SqlClient, modes: TenantModeReader): PaymentProviders {
  const live = config.paymentProvider === 'chapa' ? new ChapaProvider({ db, ...config.chapa! }) : undefined;
  return new PaymentProviders(sandboxProvider(config, adapterHost, db), live, modes);
}

/** The sandbox notifies the API this process serves; from a process without HTTP, SANDBOX_NOTIFY_URL or PUBLIC_BASE_URL. */
function sandboxProvider(config: AppConfig, adapterHost: HttpAdapterHost, db: SqlClient): SandboxProvider {
  const logger = new Logger('SandboxProvider');
  return new SandboxProvider({
    db,
    notificationSecret: Buffer.from(hkdfSync('sha256', config.secretsKey, Buffer.alloc(0), 'sandbox-provider-notifications', 32)),
    delayMs: config.sandboxDelayMs,
    notifyBaseUrl: () => {
      const address = adapterHost.httpAdapter?.getHttpServer()?.address?.();
      return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : (config.sandboxNotifyUrl ?? config.publicBaseUrl);
    },
    onDeliveryError: (error) => logger.warn(`a notification could not be delivered: ${error instanceof Error ? error.message : String(error)}`),
  });
}

/** The payment provider, the payment flow's commands and the payouts' sending (ProcessPayout, which the payout work calls): pushes, codes, notifications, expiries, refunds, the reconciler's questions, automatic releases, past-due requirements' restrictions and test clocks' advances. */
@Module({
  providers: [
    { provide: PaymentProviders, useFactory: configuredProviders, inject: [APP_CONFIG, HttpAdapterHost, SQL_CLIENT, TENANT_MODES] },
    PaymentFlow,
    PayoutBooksDeps,
    InitiatePaymentHandler,
    ConfirmOtpHandler,
    ApplyNotificationHandler,
    ExpirePaymentHandler,
    ProcessRefundHandler,
    ProcessPayout,
    ReconcilePaymentHandler,
    ReleaseDueHandler,
    RequestScheduledPayoutHandler,
    RestrictPastDueAccountHandler,
    AdvanceTestClockHandler,
  ],
  exports: [PaymentProviders, PaymentFlow, PayoutBooksDeps, ProcessPayout],
})
export class PaymentsModule implements BeforeApplicationShutdown {
  constructor(@Inject(PaymentProviders) private readonly providers: PaymentProviders) {}

  beforeApplicationShutdown(): void {
    for (const provider of this.providers.all()) if (provider instanceof SandboxProvider) provider.close();
  }
}
