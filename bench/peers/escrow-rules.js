'use strict';
/**
 * The create-escrow and release rules of docs/concepts/money-and-validation.md, as a team writing its own request parsing would
 * write them: the Emmett peer and the same-guarantees minimum parse with this module, so they refuse
 * exactly what our API refuses (the CRUD peer states the same rules as class-validator DTOs).
 * A refusal is a ValidationError with statusCode 400, which Fastify answers as such.
 */

const LIMITS = { string: 1024, items: 500, allocations: 100, metadataBytes: 8192, quantity: 1_000_000 };
const MAX_SANTIM = 100_000_000_000;
const DEFAULT_EXPIRY_MS = 30 * 60 * 1000;
const MAX_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const DECIMAL = /^(\d{1,10})(?:\.(\d{1,2}))?$/;
const ETHIOPIAN_MOBILE = /^(?:\+?251|0)([79]\d{8})$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

class ValidationError extends Error {
  constructor(message, code = 'VALIDATION_FAILED') {
    super(message);
    this.statusCode = 400;
    this.code = code;
  }
}

function fail(message, code) {
  throw new ValidationError(message, code);
}

/** A JSON number of birr with at most 2 decimals, as santim, read from its decimal text (no float arithmetic). */
function etb(value, field, { allowZero = false } = {}) {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(`${field} must be a finite JSON number`);
  const minimum = allowZero ? 0 : 0.01;
  if (value < minimum || value > MAX_SANTIM / 100) fail(`${field} must be between ${minimum} and 1000000000`);
  const match = DECIMAL.exec(String(value));
  if (!match) fail(`${field} must have at most 2 decimal places`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function text(value, field, { optional = false, maxLength = LIMITS.string } = {}) {
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string') fail(`${field} must be a string`);
  if (!optional && value.length === 0) fail(`${field} should not be empty`);
  if (value.length > maxLength) fail(`${field} must be at most ${maxLength} characters`);
  return value;
}

function url(value, field) {
  if (text(value, field, { optional: true }) === undefined) return undefined;
  let parsed;
  try {
    parsed = new URL(value);
  } catch {
    fail(`${field} must be a URL address`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail(`${field} must be an http or https URL`);
  return value;
}

function instant(value, field) {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !ISO_8601.test(value) || Number.isNaN(Date.parse(value))) fail(`${field} must be a valid ISO 8601 date string`);
  return Date.parse(value);
}

function record(value, field) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(`${field} must be an object`);
  return value;
}

function object(value, field) {
  return value === undefined ? undefined : record(value, field);
}

function list(value, field, max) {
  if (!Array.isArray(value)) fail(`${field} must be an array`);
  if (value.length === 0) fail(`${field} must contain at least 1 elements`);
  if (value.length > max) fail(`${field} must contain no more than ${max} elements`);
  return value;
}

function phone(value) {
  if (typeof value !== 'string') fail('customerPhoneNumber must be a string');
  const match = ETHIOPIAN_MOBILE.exec(value.replace(/[\s\-()]/g, ''));
  if (!match) fail('customerPhoneNumber must be an Ethiopian mobile number such as 0911234567 or +251911234567');
  return `+251${match[1]}`;
}

function item(raw, i) {
  const field = `items[${i}]`;
  record(raw, field);
  const quantity = raw.quantity;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > LIMITS.quantity) fail(`${field}.quantity must be an integer from 1 to ${LIMITS.quantity}`);
  return {
    productId: text(raw.productId, `${field}.productId`),
    itemName: text(raw.item_name, `${field}.item_name`),
    quantity,
    unitPrice: etb(raw.unit_price, `${field}.unit_price`, { allowZero: true }),
    imageUrl: url(raw.image_url, `${field}.image_url`),
    stockUnit: text(raw.stock_unit, `${field}.stock_unit`, { optional: true }),
  };
}

const ALLOCATION_FIELDS = new Set(['merchantId', 'amount', 'fee', 'metadata']);

function allocation(raw, i) {
  const field = `allocations[${i}]`;
  record(raw, field);
  for (const key of Object.keys(raw)) if (!ALLOCATION_FIELDS.has(key)) fail(`${field}.${key} is not allowed`);
  const amount = etb(raw.amount, `${field}.amount`);
  const fee = raw.fee === undefined ? undefined : etb(raw.fee, `${field}.fee`, { allowZero: true });
  if (fee !== undefined && fee > amount) fail(`${field}.fee exceeds its amount`, 'FEE_EXCEEDS_AMOUNT');
  const metadata = object(raw.metadata, `${field}.metadata`);
  return {
    merchantId: text(raw.merchantId, `${field}.merchantId`),
    amount,
    ...(fee === undefined ? {} : { fee }),
    ...(metadata
      ? { metadata: { merchantName: text(metadata.merchantName, `${field}.metadata.merchantName`, { optional: true }), purpose: text(metadata.purpose, `${field}.metadata.purpose`, { optional: true }) } }
      : {}),
  };
}

/** The escrow a valid create request describes (amounts in santim, the phone in E.164, the expiry resolved), or a ValidationError. */
function parseCreateEscrow(body, now = Date.now()) {
  record(body, 'the body');
  const amount = etb(body.amount, 'amount');
  const currency = text(body.currency, 'currency', { maxLength: 16 });
  if (currency !== 'ETB') fail(`Currency ${JSON.stringify(currency)} is not supported; the only supported currency is ETB`, 'UNSUPPORTED_CURRENCY');
  const metadata = object(body.metadata, 'metadata');
  if (metadata && Buffer.byteLength(JSON.stringify(metadata), 'utf8') > LIMITS.metadataBytes) fail(`metadata must be at most ${LIMITS.metadataBytes} bytes as JSON`);
  const customerEmail = text(body.customerEmail, 'customerEmail', { optional: true });
  if (customerEmail !== undefined && !EMAIL.test(customerEmail)) fail('customerEmail must be an email');

  const requestedExpiry = instant(body.expiredAt, 'expiredAt');
  if (requestedExpiry !== undefined && requestedExpiry <= now) fail('expiredAt must be in the future');
  if (requestedExpiry !== undefined && requestedExpiry - now > MAX_EXPIRY_MS) fail('expiredAt must be at most 30 days ahead');
  const expiresAt = requestedExpiry ?? now + DEFAULT_EXPIRY_MS;

  const allocations = list(body.allocations, 'allocations', LIMITS.allocations).map(allocation);
  const merchants = new Set();
  for (const { merchantId } of allocations) {
    if (merchants.has(merchantId)) fail(`merchantId ${merchantId} appears in more than one allocation`, 'DUPLICATE_ALLOCATION_MERCHANT');
    merchants.add(merchantId);
  }
  const total = allocations.reduce((sum, a) => sum + a.amount, 0);
  if (total !== amount) fail(`The allocations add up to ${total} santim, not the escrow's ${amount}`, 'ALLOCATION_SUM_MISMATCH');

  const autoReleaseAt = instant(body.autoReleaseAt, 'autoReleaseAt');
  const releaseAfterDays = body.releaseAfterDays;
  if (releaseAfterDays !== undefined && (!Number.isInteger(releaseAfterDays) || releaseAfterDays < 1 || releaseAfterDays > 90)) {
    fail('releaseAfterDays must be an integer from 1 to 90');
  }
  if (autoReleaseAt !== undefined) {
    if (releaseAfterDays !== undefined) fail('Give autoReleaseAt or releaseAfterDays, not both', 'AUTO_RELEASE_CONFLICT');
    if (autoReleaseAt <= expiresAt) fail('autoReleaseAt must be after the escrow expires', 'AUTO_RELEASE_BEFORE_EXPIRY');
    if (autoReleaseAt > now + 365 * DAY_MS) fail('autoReleaseAt must be at most 365 days ahead', 'AUTO_RELEASE_NOT_AHEAD');
  }

  return {
    orderId: text(body.orderId, 'orderId'),
    amount,
    currency,
    customer: { name: text(body.customerName, 'customerName'), phone: phone(body.customerPhoneNumber), email: customerEmail },
    items: list(body.items, 'items', LIMITS.items).map(item),
    allocations,
    description: text(body.description, 'description', { optional: true }),
    callbackUrl: url(body.callbackURL, 'callbackURL'),
    redirectUrl: url(body.redirectUrl, 'redirectUrl'),
    metadata,
    expiresAt: new Date(expiresAt).toISOString(),
    ...(autoReleaseAt === undefined ? {} : { autoReleaseAt: new Date(autoReleaseAt).toISOString() }),
    ...(releaseAfterDays === undefined ? {} : { releaseAfterDays }),
    createdAt: new Date(now).toISOString(),
  };
}

/** What to release: all an allocation holds, or `amount` of it (santim). */
function parseRelease(body) {
  record(body, 'the body');
  for (const key of Object.keys(body)) if (key !== 'merchantId' && key !== 'amount') fail(`${key} is not allowed`);
  return { merchantId: text(body.merchantId, 'merchantId'), amount: body.amount === undefined ? undefined : etb(body.amount, 'amount') };
}

/** A refusal by the rules of an allocation's money, after the request parsed. */
class ConflictError extends Error {
  constructor(code, message) {
    super(message);
    this.statusCode = 409;
    this.code = code;
  }
}

class NotFoundError extends Error {
  constructor(message) {
    super(message);
    this.statusCode = 404;
    this.code = 'NOT_FOUND';
  }
}

/**
 * How much a release takes from an allocation that has `released` of its `amount` already out (the
 * peers have no payments, so all of a created escrow's money counts as held), or why it cannot.
 */
function releasable(allocation, requested) {
  if (!allocation) throw new ConflictError('ALLOCATION_NOT_FOUND', 'No allocation for that merchantId');
  const held = allocation.amount - allocation.released;
  if (held === 0) throw new ConflictError('ALLOCATION_ALREADY_RELEASED', `${allocation.merchantId} was released already`);
  if (requested !== undefined && requested > held) throw new ConflictError('AMOUNT_EXCEEDS_HELD', `${requested} santim is more than the ${held} held`);
  return requested ?? held;
}

/** An escrow's status once its allocations hold what they hold. */
function statusAfterRelease(allocations) {
  return allocations.every((a) => a.released === a.amount) ? 'RELEASED' : 'PARTIALLY_RELEASED';
}

module.exports = { LIMITS, ValidationError, ConflictError, NotFoundError, parseCreateEscrow, parseRelease, releasable, statusAfterRelease };
