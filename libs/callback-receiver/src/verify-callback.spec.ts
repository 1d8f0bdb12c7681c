import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type CallbackHeaders,
  CallbackVerificationError,
  InvalidPayloadError,
  InvalidSignatureError,
  MissingHeaderError,
  signCallback,
  StaleTimestampError,
  verifyCallback,
} from './index';

const SECRET = 'whsec_4f1c2a9e0b7d4c3a8e6f5b1d2c3a4e5f';
const NOW = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const PAID = {
  billRefNo: 'ORD-1001',
  status: 'PAID',
  timestamp: '2026-01-01T00:00:00.000Z',
  message: 'Payment received',
  merchantId: 'mch_1',
  customerId: 'cus_1',
  externalReferenceId: 'ext_1',
  amount: 100.5,
  payment_type: 'USSD_PUSH',
  receipt_url: 'https://pay.example/receipts/ORD-1001',
  orderId: 'ORD-1001',
  metadata: { note: 'ቡና' },
  deliveryId: 'dlv_0123456789abcdef',
};
const BODY = JSON.stringify(PAID);

function signed(timestamp: string = String(NOW), body: string | Uint8Array = BODY, secret = SECRET): Record<string, string> {
  return { 'x-timestamp': timestamp, 'x-signature': signCallback(secret, timestamp, body) };
}

function failure(run: () => unknown): CallbackVerificationError {
  try {
    run();
  } catch (error) {
    if (error instanceof CallbackVerificationError) return error;
    throw error;
  }
  throw new Error('expected the callback to be rejected');
}

describe('verifyCallback', () => {
  describe('accepts', () => {
    it('a callback signed with a millisecond timestamp, returning its payload', () => {
      expect(verifyCallback(SECRET, signed(), BODY, { now: NOW })).toEqual(PAID);
    });

    it('a callback signed with a second timestamp, over the header value as sent', () => {
      const seconds = String(NOW / 1000);
      expect(seconds).toHaveLength(10);
      const headers = { 'x-timestamp': seconds, 'x-signature': createHmac('sha256', SECRET).update(`${seconds}.${BODY}`).digest('hex') };
      expect(verifyCallback(SECRET, headers, BODY, { now: NOW + 60_000 })).toEqual(PAID);
    });

    it('header names in any casing', () => {
      const { 'x-timestamp': timestamp, 'x-signature': signature } = signed();
      expect(verifyCallback(SECRET, { 'X-Timestamp': timestamp, 'X-SIGNATURE': signature }, BODY, { now: NOW })).toEqual(PAID);
    });

    it('the first value of a header given as an array', () => {
      const { 'x-timestamp': timestamp, 'x-signature': signature } = signed();
      expect(verifyCallback(SECRET, { 'x-timestamp': [timestamp], 'x-signature': [signature] }, BODY, { now: NOW })).toEqual(PAID);
    });

    it('a WHATWG Headers object', () => {
      expect(verifyCallback(SECRET, new Headers(signed()), BODY, { now: NOW })).toEqual(PAID);
    });

    it('the body as a Buffer or a Uint8Array', () => {
      expect(verifyCallback(SECRET, signed(), Buffer.from(BODY), { now: NOW })).toEqual(PAID);
      expect(verifyCallback(SECRET, signed(), new TextEncoder().encode(BODY), { now: NOW })).toEqual(PAID);
    });

    it('a Buffer that is a slice of a larger one (as body parsers hand out)', () => {
      const pool = Buffer.from(`xxxx${BODY}yyyy`);
      expect(verifyCallback(SECRET, signed(), pool.subarray(4, 4 + Buffer.byteLength(BODY)), { now: NOW })).toEqual(PAID);
    });

    it('an upper-case hex signature', () => {
      const headers = signed();
      headers['x-signature'] = headers['x-signature'].toUpperCase();
      expect(verifyCallback(SECRET, headers, BODY, { now: NOW })).toEqual(PAID);
    });

    it('the FAILED shape', () => {
      const body = JSON.stringify({ billRefNo: 'ORD-1002', status: 'FAILED', message: 'Payment failed: declined' });
      expect(verifyCallback(SECRET, signed(String(NOW), body), body, { now: NOW }).status).toBe('FAILED');
    });

    it('timestamps exactly at the edge of the tolerance, either way', () => {
      expect(() => verifyCallback(SECRET, signed(String(NOW - 300_000)), BODY, { now: NOW })).not.toThrow();
      expect(() => verifyCallback(SECRET, signed(String(NOW + 300_000)), BODY, { now: NOW })).not.toThrow();
    });
  });

  describe('rejects with 400', () => {
    it.each(['x-timestamp', 'x-signature'])('a callback without %s', (header) => {
      const headers: Record<string, string> = signed();
      delete headers[header];
      const error = failure(() => verifyCallback(SECRET, headers, BODY, { now: NOW }));
      expect(error).toBeInstanceOf(MissingHeaderError);
      expect(error).toMatchObject({ code: 'missing_header', status: 400, name: 'MissingHeaderError' });
      expect(error.message).toMatch(new RegExp(header, 'i'));
    });

    it('an empty header, and a missing one in a WHATWG Headers', () => {
      expect(failure(() => verifyCallback(SECRET, { ...signed(), 'x-signature': '' }, BODY, { now: NOW }))).toBeInstanceOf(MissingHeaderError);
      const headers = new Headers(signed());
      headers.delete('x-timestamp');
      expect(failure(() => verifyCallback(SECRET, headers, BODY, { now: NOW }))).toBeInstanceOf(MissingHeaderError);
    });

    it.each([
      ['not JSON', 'billRefNo=ORD-1001&status=PAID'],
      ['JSON but not an object', '[1,2,3]'],
      ['JSON null', 'null'],
    ])('a correctly signed body that is %s', (_, body) => {
      const error = failure(() => verifyCallback(SECRET, signed(String(NOW), body), body, { now: NOW }));
      expect(error).toBeInstanceOf(InvalidPayloadError);
      expect(error).toMatchObject({ code: 'invalid_payload', status: 400 });
    });

    it('a correctly signed body that is not valid UTF-8', () => {
      const body = Buffer.from([0x7b, 0xff, 0x7d]);
      expect(failure(() => verifyCallback(SECRET, signed(String(NOW), body), body, { now: NOW }))).toBeInstanceOf(InvalidPayloadError);
    });
  });

  describe('rejects with 401', () => {
    const expectInvalidSignature = (headers: CallbackHeaders, body: string | Uint8Array = BODY) => {
      const error = failure(() => verifyCallback(SECRET, headers, body, { now: NOW }));
      expect(error).toBeInstanceOf(InvalidSignatureError);
      expect(error).toMatchObject({ code: 'invalid_signature', status: 401 });
    };

    it('a body verified after it was parsed and stringified again, saying that is the likely cause', () => {
      const reserialised = JSON.stringify(JSON.parse(BODY), null, 2);
      const error = failure(() => verifyCallback(SECRET, signed(), reserialised, { now: NOW }));
      expect(error).toBeInstanceOf(InvalidSignatureError);
      expect(error.message).toMatch(/re-serialised .* raw bytes received/);
    });

    it('a callback signed with another secret', () => {
      expectInvalidSignature(signed(String(NOW), BODY, 'whsec_someone_else'));
    });

    it('a tampered body', () => {
      expectInvalidSignature(signed(), BODY.replace('100.5', '1005'));
    });

    it('a body re-serialised with different spacing', () => {
      expectInvalidSignature(signed(), JSON.stringify(PAID, null, 2));
    });

    it('a tampered timestamp, even within the tolerance', () => {
      const headers = signed();
      headers['x-timestamp'] = String(NOW + 1);
      expectInvalidSignature(headers);
    });

    it('the same instant re-expressed in seconds', () => {
      const headers = signed();
      headers['x-timestamp'] = String(NOW / 1000);
      expectInvalidSignature(headers);
    });

    it.each([
      ['too short', 'abc123'],
      ['63 hex characters', 'a'.repeat(63)],
      ['65 hex characters', 'a'.repeat(65)],
      ['64 characters, not all hex', `${'a'.repeat(62)}zz`],
      ['base64 of the right digest', Buffer.from(signCallback(SECRET, String(NOW), BODY), 'hex').toString('base64')],
      ['prefixed like other providers', `sha256=${signCallback(SECRET, String(NOW), BODY)}`],
    ])('a signature that is %s', (_, signature) => {
      expectInvalidSignature({ 'x-timestamp': String(NOW), 'x-signature': signature });
    });

    it('a forged request, before looking at its stale timestamp or unparsable body', () => {
      expectInvalidSignature({ 'x-timestamp': '1', 'x-signature': 'f'.repeat(64) }, 'not json');
    });

    it('a correctly signed timestamp older than the tolerance', () => {
      const error = failure(() => verifyCallback(SECRET, signed(String(NOW - 300_001)), BODY, { now: NOW }));
      expect(error).toBeInstanceOf(StaleTimestampError);
      expect(error).toMatchObject({ code: 'stale_timestamp', status: 401 });
      expect(error.message).toMatch(/past/);
    });

    it('a correctly signed timestamp further in the future than the tolerance', () => {
      const error = failure(() => verifyCallback(SECRET, signed(String(NOW + 300_001)), BODY, { now: NOW }));
      expect(error).toBeInstanceOf(StaleTimestampError);
      expect(error.message).toMatch(/future/);
    });

    it('a stale timestamp in seconds', () => {
      const seconds = String(NOW / 1000 - 301);
      expect(failure(() => verifyCallback(SECRET, signed(seconds), BODY, { now: NOW }))).toBeInstanceOf(StaleTimestampError);
    });

    it.each(['2026-01-01T00:00:00Z', '17672256000', '-1767225600000', '1767225600000.0'])('a correctly signed timestamp that is neither seconds nor ms: %s', (timestamp) => {
      expect(failure(() => verifyCallback(SECRET, signed(timestamp), BODY, { now: NOW }))).toBeInstanceOf(StaleTimestampError);
    });
  });

  describe('options', () => {
    it('defaults now to the current time', () => {
      expect(verifyCallback(SECRET, signed(String(Date.now())), BODY)).toEqual(PAID);
      expect(failure(() => verifyCallback(SECRET, signed(String(Date.now() - 600_000)), BODY))).toBeInstanceOf(StaleTimestampError);
    });

    it('applies a custom tolerance', () => {
      const headers = signed(String(NOW - 10_000));
      expect(failure(() => verifyCallback(SECRET, headers, BODY, { now: NOW, toleranceMs: 5_000 }))).toBeInstanceOf(StaleTimestampError);
      expect(verifyCallback(SECRET, headers, BODY, { now: NOW, toleranceMs: 10_000 })).toEqual(PAID);
      expect(verifyCallback(SECRET, signed(String(NOW - 86_400_000)), BODY, { now: NOW, toleranceMs: Infinity })).toEqual(PAID);
    });

    it('verifies against a custom now, e.g. for callbacks taken from a queue later', () => {
      const headers = signed(String(NOW));
      expect(verifyCallback(SECRET, headers, BODY, { now: NOW + 3_600_000, toleranceMs: 2 * 3_600_000 })).toEqual(PAID);
      expect(failure(() => verifyCallback(SECRET, headers, BODY, { now: NOW + 3_600_000 }))).toBeInstanceOf(StaleTimestampError);
    });
  });

  describe('misuse is a TypeError, not a rejected callback', () => {
    it('an empty secret, which would make everyone able to sign', () => {
      const headers = signed(String(NOW), BODY, '');
      expect(() => verifyCallback('', headers, BODY, { now: NOW })).toThrow(TypeError);
      expect(() => verifyCallback(undefined as unknown as string, headers, BODY, { now: NOW })).toThrow(TypeError);
    });

    it('a parsed body or a missing raw body', () => {
      expect(() => verifyCallback(SECRET, signed(), PAID as unknown as string, { now: NOW })).toThrow(/raw request body/);
      expect(() => verifyCallback(SECRET, signed(), undefined as unknown as string, { now: NOW })).toThrow(/rawBody: true/);
    });

    it('a tolerance that is not a number of ms', () => {
      expect(() => verifyCallback(SECRET, signed(), BODY, { now: NOW, toleranceMs: Number.NaN })).toThrow(TypeError);
      expect(() => verifyCallback(SECRET, signed(), BODY, { now: NOW, toleranceMs: -1 })).toThrow(TypeError);
    });
  });
});

describe('signCallback', () => {
  it('gives the same signature for the same message as a string or bytes, and a number or string timestamp', () => {
    const expected = signCallback(SECRET, String(NOW), BODY);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
    expect(signCallback(SECRET, NOW, Buffer.from(BODY))).toBe(expected);
  });

  it('matches a fixed vector, so a change to the scheme cannot pass unnoticed', () => {
    // Computed once with: printf '%s' '1700000000000.{"billRefNo":"B1","status":"PAID"}' | openssl dgst -sha256 -hmac whsec_test
    expect(signCallback('whsec_test', '1700000000000', '{"billRefNo":"B1","status":"PAID"}')).toBe(
      '2114b6760364c387dd151136e2995e40b7a81fbd32a981ec2450ffbbaa763994',
    );
  });
});

/**
 * A receiver written from the spec's Authentication section alone, with node:crypto and nothing from
 * this library: if it accepts what signCallback produces, the helper and the spec agree on the scheme.
 */
describe('an independent receiver written from the spec', () => {
  function specReceiver(webhookSecret: string, headers: Record<string, string | undefined>, body: string): { status: number } {
    const timestamp = headers['x-timestamp'];
    const signature = headers['x-signature'];
    if (!timestamp || !signature) return { status: 400 };
    const expected = createHmac('sha256', Buffer.from(webhookSecret, 'utf8')).update(`${timestamp}.${body}`, 'utf8').digest('hex');
    if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature, 'utf8'), Buffer.from(expected, 'utf8'))) return { status: 401 };
    if (Math.abs(Date.now() - Number(timestamp)) > 5 * 60 * 1000) return { status: 401 };
    return { status: 200 };
  }

  it('accepts a callback signed by signCallback', () => {
    const timestamp = String(Date.now());
    const signature = signCallback(SECRET, timestamp, BODY);
    expect(signature).toMatch(/^[0-9a-f]{64}$/); // the spec says lowercase hex
    expect(specReceiver(SECRET, { 'x-timestamp': timestamp, 'x-signature': signature }, BODY)).toEqual({ status: 200 });
  });

  it('rejects it with another secret or another body', () => {
    const timestamp = String(Date.now());
    const signature = signCallback(SECRET, timestamp, BODY);
    expect(specReceiver('whsec_other', { 'x-timestamp': timestamp, 'x-signature': signature }, BODY)).toEqual({ status: 401 });
    expect(specReceiver(SECRET, { 'x-timestamp': timestamp, 'x-signature': signature }, `${BODY} `)).toEqual({ status: 401 });
  });

  it('and the helper accepts what the independent scheme signs', () => {
    const timestamp = String(Date.now());
    const signature = createHmac('sha256', SECRET).update(`${timestamp}.${BODY}`).digest('hex');
    expect(verifyCallback(SECRET, { 'x-timestamp': timestamp, 'x-signature': signature }, BODY)).toEqual(PAID);
  });
});
