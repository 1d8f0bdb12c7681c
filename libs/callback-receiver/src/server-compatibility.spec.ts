import { signCallbackBody } from '@app/callbacks';
import { verifyCallback } from './index';

it('accepts exactly what the service signs', () => {
  const secret = 'whsec_test';
  const body = JSON.stringify({ billRefNo: 'ORDER-1', status: 'PAID', deliveryId: 'dlv_1' });
  const timestamp = String(Date.now());
  const payload = verifyCallback(secret, { 'X-Timestamp': timestamp, 'X-Signature': signCallbackBody(secret, timestamp, body) }, body);
  expect(payload).toMatchObject({ status: 'PAID', deliveryId: 'dlv_1' });
  expect(() => verifyCallback('whsec_other', { 'x-timestamp': timestamp, 'x-signature': signCallbackBody(secret, timestamp, body) }, body)).toThrow();
});
