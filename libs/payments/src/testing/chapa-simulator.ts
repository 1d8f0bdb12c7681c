import { createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request } from 'undici';
import { CHAPA_STATEMENT_COLUMNS, csvRow } from '@app/audit';
import { CHAPA_METHODS } from '../chapa/chapa-methods';

/**
 * Chapa as its public documentation describes it, for the tests and the chaos run: this machine
 * cannot reach Chapa. Each behaviour names the page it reproduces; what the pages leave open (the
 * exact error texts, the refund webhook's fields, the test customers) is this simulator's choice,
 * and docs/guides/chapa.md says which of the adapter's behaviours are verified against it only.
 */
export interface ChapaSimulatorOptions {
  secretKey: string;
  encryptionKey: string;
  webhookSecret: string;
  /** Where webhooks go, resolved at each delivery (the URL set in Chapa's dashboard). */
  webhookUrl: () => string;
  /** How long a customer, and Chapa's settlement of a refund, take. */
  delayMs: number;
  /** Webhooks at random lost for good, sent twice, or held back up to `maxDelayMs` (the chaos run's network). */
  webhookFaults?: { loseRate: number; repeatRate: number; maxDelayMs: number };
}

/** The simulator's customers, by the phone the order carries (E.164, as our API takes it). */
export const CHAPA_SIMULATOR_PHONES = {
  approves: '+251911000000',
  declines: '+251911000001',
  neverAnswers: '+251911000002',
  refundRefused: '+251911000009',
  /** An M-Pesa (Safaricom) customer: M-Pesa takes 07… numbers only. */
  mpesa: '+251711000000',
} as const;

/** Accounts the simulator's transfers treat specially; any other is paid. */
export const CHAPA_SIMULATOR_ACCOUNTS = {
  /** Refused at once (Chapa cannot pay it). */
  refused: '1000000001',
  /** Taken, then failed (reverted). */
  bounces: '1000000002',
} as const;

/** The one-time code the simulator's customers receive. */
export const CHAPA_SIMULATOR_OTP = '246810';

/** The methods whose charge answers `auth_type: otp` (https://developer.chapa.co/charge/authorize-payments). */
const OTP_METHODS = new Set(CHAPA_METHODS.filter((m) => m.otpRequired).map((m) => m.id));

type ChargeStatus = 'pending' | 'success' | 'failed';

export interface SimulatedCharge {
  txRef: string;
  reference: string;
  requestId: string;
  method: string;
  amount: string;
  currency: string;
  mobile: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  status: ChargeStatus;
  otpRequired: boolean;
  createdAt: string;
  updatedAt: string;
  refunded: number;
}

export interface SimulatedTransfer {
  reference: string;
  chapaReference: string;
  accountNumber: string;
  bankCode: string;
  amount: string;
  status: 'pending' | 'success' | 'failed';
  createdAt: string;
  updatedAt: string;
}

export interface SimulatedRefund {
  refId: string;
  reference: string;
  txRef: string;
  amount: string;
  meta: unknown;
  status: 'pending' | 'success' | 'failed';
  createdAt: string;
  updatedAt: string;
}

const toSantim = (etb: string): number => {
  const [whole, cents = ''] = etb.split('.');
  return Number(whole) * 100 + Number(cents.padEnd(2, '0'));
};
const formatSantim = (santim: number): string => `${Math.trunc(santim / 100)}.${String(santim % 100).padStart(2, '0')}`;
const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;

function localOf(e164: string): string {
  return `0${e164.slice(4)}`;
}

export class ChapaSimulator {
  readonly charges = new Map<string, SimulatedCharge>();
  readonly refunds = new Map<string, SimulatedRefund>();
  readonly transfers = new Map<string, SimulatedTransfer>();
  /** Every request as received, without its bearer token: the tests look for secrets and phones. */
  readonly requests: { method: string; path: string; body: string; authorized: boolean }[] = [];
  /** Every webhook body delivered (acknowledged), in order. */
  readonly delivered: string[] = [];
  /** While set, webhooks are dropped instead of sent: Chapa gave up on them (a lost notification). */
  loseWebhooks = false;
  /**
   * How many of the next refund requests lose their answer: Chapa acts on the request, then the
   * connection drops before its answer reaches the caller (the network's fault, or a caller that died).
   */
  refundAnswersToLose = 0;
  /** Whether a refund is verified by the merchant's `reference` as well as by its `ref_id` (verifyRefund). */
  findsRefundsByOurReference = true;
  /** What `webhookFaults` did. */
  readonly webhookFaultCounts = { lost: 0, repeated: 0, delayed: 0 };
  private server?: Server;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly options: ChapaSimulatorOptions) {}

  /** The base URL to set as CHAPA_BASE_URL. */
  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}/v1`;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
  }

  /**
   * The account's transactions and transfers of an Africa/Addis_Ababa day as a CSV file. Chapa documents
   * no statement file: the columns are the fields its "All Transactions" answer gives each transaction
   * (https://developer.chapa.co/transactions/all-transactions: status, ref_id, type, created_at,
   * currency, amount, charge, payment_method) and its "All Transfers" answer each transfer
   * (https://developer.chapa.co/docs/all-transfers: reference, chapa_reference, amount, charge,
   * status, created_at, updated_at), with the `tx_ref` that verification returns
   * (https://developer.chapa.co/integrations/verify-payments), one file for both. This simulator's
   * choices: `type` is `API` for a Direct Charge, `Refund` and `Payout`; a transfer's
   * `chapa_reference` is its `ref_id`; a refund's `reference` is the one it was asked under; an item
   * belongs to the day it ended (`updated_at`), or, still pending, the day it was made.
   */
  statement(day: string): string {
    const from = Date.parse(`${day}T00:00:00.000+03:00`);
    const to = from + 86_400_000;
    const rows: { at: number; values: string[] }[] = [];
    const add = (createdAt: string, updatedAt: string, type: string, status: string, amount: string, refId: string, txRef: string, reference: string, method: string) => {
      const at = Date.parse(status === 'pending' ? createdAt : updatedAt);
      if (at >= from && at < to) rows.push({ at, values: [createdAt, updatedAt, type, status, 'ETB', amount, '0.00', refId, txRef, reference, method] });
    };
    for (const c of this.charges.values()) add(c.createdAt, c.updatedAt, 'API', c.status, c.amount, c.reference, c.txRef, '', c.method);
    for (const r of this.refunds.values()) add(r.createdAt, r.updatedAt, 'Refund', r.status === 'success' ? 'refunded' : r.status, r.amount, r.refId, r.txRef, r.reference, '');
    for (const t of this.transfers.values()) add(t.createdAt, t.updatedAt, 'Payout', t.status, t.amount, t.chapaReference, '', t.reference, '');
    return csvRow(CHAPA_STATEMENT_COLUMNS) + rows.sort((a, b) => a.at - b.at).map((row) => csvRow(row.values)).join('');
  }

  /** Chapa could not pay a refund out (the customer's wallet was closed, say): it reports it failed. */
  failRefund(refId: string): void {
    const refund = this.refunds.get(refId)!;
    refund.status = 'failed';
    refund.updatedAt = new Date().toISOString();
  }

  /** The webhook Chapa sends for a charge in its current state (to send again: a duplicate). */
  chargeWebhook(txRef: string, status: ChargeStatus = this.charges.get(txRef)!.status): Record<string, unknown> {
    const charge = this.charges.get(txRef)!;
    return {
      event: status === 'success' ? 'charge.success' : 'charge.failed',
      type: 'API',
      first_name: charge.firstName,
      last_name: charge.lastName,
      email: charge.email ?? null,
      mobile: charge.mobile,
      currency: charge.currency,
      amount: charge.amount,
      charge: '0.00',
      status,
      mode: this.options.secretKey.startsWith('CHASECK_TEST-') ? 'test' : 'live',
      reference: charge.reference,
      tx_ref: charge.txRef,
      payment_method: charge.method,
      created_at: charge.createdAt,
      updated_at: charge.updatedAt,
    };
  }

  /**
   * Posts a webhook signed as https://developer.chapa.co/integrations/webhooks describes:
   * `x-chapa-signature` is the HMAC-SHA256 of the body keyed by the secret hash, `Chapa-Signature`
   * the HMAC of the secret hash itself. Delivered again until acknowledged with a 2xx.
   */
  sendWebhook(payload: Record<string, unknown>): void {
    const body = JSON.stringify(payload);
    const faults = this.options.webhookFaults;
    if (this.loseWebhooks || (faults && Math.random() < faults.loseRate)) {
      if (!this.loseWebhooks) this.webhookFaultCounts.lost += 1;
      return;
    }
    const copies = faults && Math.random() < faults.repeatRate ? 2 : 1;
    if (copies === 2) this.webhookFaultCounts.repeated += 1;
    for (let copy = 0; copy < copies; copy++) {
      const delay = faults ? Math.floor(Math.random() * faults.maxDelayMs) : 0;
      if (delay > 0) this.webhookFaultCounts.delayed += 1;
      this.later(delay, () => this.deliver(body, 0));
    }
  }

  private async deliver(body: string, attempt: number): Promise<void> {
    if (this.closed) return;
    const hmac = (data: string) => createHmac('sha256', this.options.webhookSecret).update(data).digest('hex');
    try {
      const response = await request(this.options.webhookUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-chapa-signature': hmac(body), 'chapa-signature': hmac(this.options.webhookSecret) },
        body,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await response.body.text();
      if (response.statusCode >= 200 && response.statusCode < 300) {
        this.delivered.push(body);
        return;
      }
    } catch {
      // Unreachable: tried again below, as for any answer but a 2xx.
    }
    if (attempt < 60) this.later(Math.min(100 * 2 ** attempt, 2_000), () => this.deliver(body, attempt + 1));
  }

  private later(ms: number, work: () => unknown): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void work();
    }, ms);
    this.timers.add(timer);
  }

  private settle(charge: SimulatedCharge, status: ChargeStatus): void {
    this.later(this.options.delayMs, () => {
      if (charge.status !== 'pending') return;
      charge.status = status;
      charge.updatedAt = new Date().toISOString();
      this.sendWebhook(this.chargeWebhook(charge.txRef));
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url ?? '/', 'http://simulator');
    const authorized = req.headers.authorization === `Bearer ${this.options.secretKey}`;
    this.requests.push({ method: req.method ?? '', path: url.pathname + url.search, body, authorized });
    const losesAnswer = req.method === 'POST' && url.pathname.startsWith('/v1/refund/') && this.refundAnswersToLose > 0;
    if (losesAnswer) this.refundAnswersToLose -= 1;
    const answer = (status: number, message: unknown, data: unknown = null, outcome = status < 400 ? 'success' : 'failed') => {
      if (losesAnswer) return void res.socket?.destroy();
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message, status: outcome, data }));
    };
    // https://developer.chapa.co/api-reference/error-codes: a missing or wrong key is a 401.
    if (!authorized) return answer(401, "Invalid API Key or User doesn't exist");
    let fields: Record<string, unknown> = {};
    if (body) {
      try {
        fields = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return answer(400, 'The body must be JSON');
      }
    }
    const path = url.pathname;
    let match: RegExpExecArray | null;
    if (req.method === 'POST' && path === '/v1/charges') return this.charge(url.searchParams.get('type') ?? '', fields, answer);
    if (req.method === 'POST' && path === '/v1/validate') return this.validate(url.searchParams.get('type') ?? '', fields, answer);
    if (req.method === 'GET' && (match = /^\/v1\/transaction\/verify\/([^/]+)$/.exec(path))) return this.verify(decodeURIComponent(match[1]), answer);
    if (req.method === 'POST' && (match = /^\/v1\/refund\/([^/]+)$/.exec(path))) return this.refund(decodeURIComponent(match[1]), fields, answer);
    if (req.method === 'GET' && (match = /^\/v1\/refund\/([^/]+)\/verify$/.exec(path))) return this.verifyRefund(decodeURIComponent(match[1]), answer);
    if (req.method === 'POST' && path === '/v1/transfers') return this.transfer(fields, answer);
    if (req.method === 'GET' && (match = /^\/v1\/transfers\/verify\/([^/]+)$/.exec(path))) return this.verifyTransfer(decodeURIComponent(match[1]), answer);
    return answer(404, 'Not found');
  }

  /**
   * https://developer.chapa.co/charge/initiate-payments: "send the transaction details and the
   * customer's payment details to the charge endpoint" of the method (`?type=telebirr`), with the
   * secret key as bearer token; the amount, currency, your unique `tx_ref` and the customer's mobile.
   * The answer (as Chapa's own SDK reads it, `DirectChargeSuccessResponse`): `{message, status,
   * data: {auth_type: "ussd" | "otp", requestID, meta: {message, status, ref_id, payment_status}, mode}}`.
   * A `tx_ref` used before is refused (the docs' "unique" reference).
   */
  private charge(type: string, fields: Record<string, unknown>, answer: (status: number, message: unknown, data?: unknown) => void): void {
    if (!CHAPA_METHODS.some((m) => m.id === type)) return answer(400, `Invalid payment type ${type}`);
    const { amount, currency, tx_ref: txRef, mobile } = fields;
    const problems: Record<string, string[]> = {};
    if (typeof amount !== 'string' || !AMOUNT.test(amount) || toSantim(amount) === 0) problems.amount = ['The amount must be a positive number'];
    if (currency !== 'ETB') problems.currency = ['Direct charge takes ETB'];
    if (typeof txRef !== 'string' || txRef.length === 0 || txRef.length > 100) problems.tx_ref = ['The tx ref is required'];
    // The phone must belong to the wallet: M-Pesa (Safaricom) numbers are 07…, the others 09… (https://developer.chapa.co/integrations/inline-js).
    const prefix = type === 'mpesa' ? /^07\d{8}$/ : /^09\d{8}$/;
    if (typeof mobile !== 'string' || !prefix.test(mobile)) problems.mobile = [`The mobile is not a ${type} number`];
    if (Object.keys(problems).length > 0) return answer(400, problems);
    if (this.charges.has(txRef as string)) return answer(400, 'Transaction reference has been used before');
    const now = new Date().toISOString();
    const charge: SimulatedCharge = {
      txRef: txRef as string,
      reference: `CH${randomBytes(5).toString('hex').toUpperCase()}`,
      requestId: randomBytes(24).toString('hex'),
      method: type,
      amount: formatSantim(toSantim(amount as string)),
      currency: 'ETB',
      mobile: mobile as string,
      firstName: typeof fields.first_name === 'string' ? fields.first_name : undefined,
      lastName: typeof fields.last_name === 'string' ? fields.last_name : undefined,
      email: typeof fields.email === 'string' ? fields.email : undefined,
      status: 'pending',
      otpRequired: OTP_METHODS.has(type),
      createdAt: now,
      updatedAt: now,
      refunded: 0,
    };
    this.charges.set(charge.txRef, charge);
    if (!charge.otpRequired) {
      if (charge.mobile === localOf(CHAPA_SIMULATOR_PHONES.declines)) this.settle(charge, 'failed');
      else if (charge.mobile !== localOf(CHAPA_SIMULATOR_PHONES.neverAnswers)) this.settle(charge, 'success');
    }
    answer(200, 'Charge initiated', {
      auth_type: charge.otpRequired ? 'otp' : 'ussd',
      requestID: charge.requestId,
      meta: { message: charge.otpRequired ? 'Enter the code sent to the customer' : 'Payment request sent to the customer', status: 'success', ref_id: charge.reference, payment_status: 'PENDING' },
      mode: 'test',
    });
  }

  /**
   * https://developer.chapa.co/charge/authorize-payments: "using your transaction reference, POST to
   * the authorize endpoint" `/v1/validate?type=<method>`, the sensitive part wrapped as `{client}`.
   * https://developer.chapa.co/charge/encryption: `client` is the JSON of `{requestID, otp}` (the
   * requestID the charge returned), encrypted with 3DES under the encryption key, then base64.
   */
  private validate(type: string, fields: Record<string, unknown>, answer: (status: number, message: unknown, data?: unknown) => void): void {
    const charge = typeof fields.reference === 'string' ? this.charges.get(fields.reference) : undefined;
    if (!charge || charge.method !== type || !charge.otpRequired) return answer(400, 'Invalid transaction or Transaction not found');
    let secure: { requestID?: unknown; otp?: unknown };
    try {
      const decipher = createDecipheriv('des-ede3', Buffer.from(this.options.encryptionKey, 'utf8'), null);
      const plain = Buffer.concat([decipher.update(Buffer.from(String(fields.client), 'base64')), decipher.final()]).toString('utf8');
      secure = JSON.parse(plain) as typeof secure;
    } catch {
      return answer(400, 'The client payload could not be decrypted');
    }
    if (secure.requestID !== charge.requestId) return answer(400, 'Invalid request ID');
    if (secure.otp !== CHAPA_SIMULATOR_OTP) return answer(400, 'Invalid OTP');
    if (charge.status === 'pending') this.settle(charge, 'success');
    answer(200, 'Payment is being processed', { reference: charge.reference });
  }

  /**
   * https://developer.chapa.co/integrations/verify-payments: `GET /v1/transaction/verify/<tx_ref>`
   * "as a failsafe" before giving value; the transaction's details with its `status` and Chapa's
   * `reference`. An unknown reference: "Invalid transaction or Transaction not found" (the status code
   * is not given; 404 here, which the adapter reads as unknown, as it does a 400).
   */
  private verify(txRef: string, answer: (status: number, message: unknown, data?: unknown) => void): void {
    const charge = this.charges.get(txRef);
    if (!charge) return answer(404, 'Invalid transaction or Transaction not found');
    answer(200, 'Payment details', {
      first_name: charge.firstName,
      last_name: charge.lastName,
      email: charge.email ?? null,
      currency: charge.currency,
      amount: charge.amount,
      charge: '0.00',
      mode: 'test',
      method: charge.method,
      type: 'API',
      status: charge.status,
      reference: charge.reference,
      tx_ref: charge.txRef,
      created_at: charge.createdAt,
      updated_at: charge.updatedAt,
    });
  }

  /**
   * https://developer.chapa.co/refund: `POST /v1/refund/<reference>` with `reason`, an optional
   * `amount` ("if not provided, the full transaction amount"), `meta` ("returned in the response and
   * webhook") and a `reference` "unique within your business"; the answer's `ref_id` is what
   * `GET /v1/refund/<ref_id>/verify` takes. The page names the path's reference both the tx_ref and
   * "the reference set by Chapa": both are taken here. The refund webhook's fields are not documented:
   * `event: charge.refunded` with the payment's `tx_ref`, the `ref_id` and the `meta` is this simulator's reading.
   * A `reference` used before is refused (the page's "unique within your business"; the text is this simulator's).
   */
  private refund(paymentReference: string, fields: Record<string, unknown>, answer: (status: number, message: unknown, data?: unknown) => void): void {
    const charge = this.charges.get(paymentReference) ?? [...this.charges.values()].find((c) => c.reference === paymentReference);
    if (!charge || charge.status !== 'success') return answer(404, 'Transaction not found or not successful');
    if (typeof fields.reason !== 'string' || fields.reason.length === 0) return answer(400, { reason: ['The reason is required'] });
    if (charge.mobile === localOf(CHAPA_SIMULATOR_PHONES.refundRefused)) return answer(400, 'Insufficient balance to process the refund');
    const reference = typeof fields.reference === 'string' ? fields.reference : `auto-${randomBytes(6).toString('hex')}`;
    if ([...this.refunds.values()].some((r) => r.reference === reference)) return answer(400, 'Refund reference has been used before');
    const santim = fields.amount === undefined ? toSantim(charge.amount) - charge.refunded : typeof fields.amount === 'string' && AMOUNT.test(fields.amount) ? toSantim(fields.amount) : -1;
    if (santim <= 0 || charge.refunded + santim > toSantim(charge.amount)) return answer(400, 'The refund amount exceeds what can be refunded');
    charge.refunded += santim;
    const refund: SimulatedRefund = {
      refId: `CHREF${randomBytes(5).toString('hex').toUpperCase()}`,
      reference,
      txRef: charge.txRef,
      amount: formatSantim(santim),
      meta: fields.meta ?? null,
      status: 'pending',
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    };
    this.refunds.set(refund.refId, refund);
    this.later(this.options.delayMs, () => {
      if (refund.status !== 'pending') return;
      refund.status = 'success';
      refund.updatedAt = new Date().toISOString();
      this.sendWebhook({
        event: 'charge.refunded',
        type: 'Refund',
        status: 'refunded',
        tx_ref: refund.txRef,
        ref_id: refund.refId,
        reference: refund.reference,
        amount: refund.amount,
        currency: 'ETB',
        meta: refund.meta,
        created_at: refund.updatedAt,
        updated_at: refund.updatedAt,
      });
    });
    answer(200, 'Refund initiated', { ref_id: refund.refId, status: refund.status, amount: refund.amount, currency: 'ETB', updated_at: refund.updatedAt });
  }

  /**
   * https://developer.chapa.co/transfer/transfers: `POST /v1/transfers` with `account_name`,
   * `account_number`, `amount`, `currency` (ETB), the merchant's unique `reference` ("it can be used to
   * query for the status of the transfer") and `bank_code`. The page leaves the answer's fields and the
   * approval step out; here a transfer is queued at once and settles after `delayMs`.
   */
  private transfer(fields: Record<string, unknown>, answer: (status: number, message: unknown, data?: unknown) => void): void {
    const { account_name: accountName, account_number: accountNumber, amount, currency, reference, bank_code: bankCode } = fields;
    const problems: Record<string, string[]> = {};
    if (typeof accountName !== 'string' || accountName.length === 0) problems.account_name = ['The account name is required'];
    if (typeof accountNumber !== 'string' || !/^\d{6,20}$/.test(accountNumber)) problems.account_number = ['The account number is invalid'];
    if (typeof amount !== 'string' || !AMOUNT.test(amount) || toSantim(amount) === 0) problems.amount = ['The amount must be a positive number'];
    if (currency !== 'ETB') problems.currency = ['Transfers are in ETB'];
    if (typeof reference !== 'string' || reference.length === 0) problems.reference = ['The reference is required'];
    if (typeof bankCode !== 'string' && typeof bankCode !== 'number') problems.bank_code = ['The bank code is required'];
    if (Object.keys(problems).length > 0) return answer(400, problems);
    if (this.transfers.has(reference as string)) return answer(400, 'Transfer reference has been used before');
    if (accountNumber === CHAPA_SIMULATOR_ACCOUNTS.refused) return answer(400, 'The account could not be verified');
    const now = new Date().toISOString();
    const transfer: SimulatedTransfer = {
      reference: reference as string,
      chapaReference: `TR${randomBytes(5).toString('hex').toUpperCase()}`,
      accountNumber: accountNumber as string,
      bankCode: String(bankCode),
      amount: formatSantim(toSantim(amount as string)),
      status: 'pending',
      createdAt: now,
      updatedAt: now,
    };
    this.transfers.set(transfer.reference, transfer);
    this.later(this.options.delayMs, () => {
      transfer.status = transfer.accountNumber === CHAPA_SIMULATOR_ACCOUNTS.bounces ? 'failed' : 'success';
      transfer.updatedAt = new Date().toISOString();
    });
    answer(200, 'Transfer Queued Successfully', transfer.reference);
  }

  /** https://developer.chapa.co/transfer/verify-transfers: `GET /v1/transfers/verify/<reference>`. */
  private verifyTransfer(reference: string, answer: (status: number, message: unknown, data?: unknown) => void): void {
    const transfer = this.transfers.get(reference);
    if (!transfer) return answer(404, 'Transfer not found');
    answer(200, 'Transfer details', {
      account_number: `••••${transfer.accountNumber.slice(-4)}`,
      bank_code: transfer.bankCode,
      amount: transfer.amount,
      currency: 'ETB',
      reference: transfer.reference,
      chapa_reference: transfer.chapaReference,
      status: transfer.status,
      created_at: transfer.createdAt,
      updated_at: transfer.updatedAt,
    });
  }

  /**
   * https://developer.chapa.co/refund: `GET /v1/refund/<ref_id>/verify`, where the path names "the
   * reference of the refund", its example the `ref_id` of the refund's answer. That the merchant's own
   * `reference` is taken too (for a refund whose answer was lost) is this simulator's reading.
   */
  private verifyRefund(refId: string, answer: (status: number, message: unknown, data?: unknown) => void): void {
    const refund = this.refunds.get(refId) ?? (this.findsRefundsByOurReference ? [...this.refunds.values()].find((r) => r.reference === refId) : undefined);
    if (!refund) return answer(404, 'Refund not found');
    answer(200, 'Refund verified successfully', { ref_id: refund.refId, amount: refund.amount, currency: 'ETB', status: refund.status, updated_at: refund.updatedAt });
  }
}
