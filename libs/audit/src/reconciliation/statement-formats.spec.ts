import { addisDay, addisDayOf, addisTime } from '@app/domain';
import { parseStatement, StatementUnreadable } from './statement-formats';

const SANDBOX_HEADER = 'time,type,status,amount,fee,currency,reference,provider_reference,order_id';
const CHAPA_HEADER = 'created_at,updated_at,type,status,currency,amount,charge,ref_id,tx_ref,reference,payment_method';

describe('statement formats', () => {
  it("reads the sandbox's statement, amounts digit by digit", () => {
    const csv = `\uFEFF${SANDBOX_HEADER}\r\n2026-11-25T10:00:00.000+03:00,payment,success,1500.10,0.00,ETB,att_1,SBX-1,ord_1\r\n\r\n2026-11-25T11:00:00.000+03:00,refund,pending,0.3,,ETB,rf_1,SBX-R-1,ord_1\r\n`;
    expect(parseStatement('sandbox', csv)).toEqual([
      { line: 2, kind: 'payment', providerReference: 'SBX-1', reference: 'att_1', amount: 150_010, fee: 0, status: 'settled', providerStatus: 'success', at: '2026-11-25T07:00:00.000Z' },
      { line: 4, kind: 'refund', providerReference: 'SBX-R-1', reference: 'rf_1', amount: 30, fee: 0, status: 'pending', providerStatus: 'pending', at: '2026-11-25T08:00:00.000Z' },
    ]);
  });

  it("reads Chapa's words: its types, statuses and charge, the tx_ref of a payment and the reference of a refund or transfer", () => {
    const csv = [
      CHAPA_HEADER,
      '2026-11-25T07:00:00Z,2026-11-25T07:00:05Z,API,success,ETB,100.00,3.50,CHabc,ord_x-1a2b,,telebirr',
      '2026-11-25T08:00:00Z,2026-11-25T08:00:05Z,Refund,refunded,ETB,40.00,0,CHREF1,ord_x-1a2b,rf_1,',
      '2026-11-25T09:00:00Z,2026-11-25T09:30:00Z,Payout,reverted,ETB,60.00,1.00,TR1,,pay_1,',
      '2026-11-25T10:00:00Z,,API,processing,ETB,5,,CHdef,ord_y-3c4d,,mpesa',
    ].join('\n');
    const lines = parseStatement('chapa', csv);
    expect(lines.map((l) => [l.kind, l.status, l.providerReference, l.reference, l.amount, l.fee, l.at])).toEqual([
      ['payment', 'settled', 'CHabc', 'ord_x-1a2b', 10_000, 350, '2026-11-25T07:00:05.000Z'],
      ['refund', 'settled', 'CHREF1', 'rf_1', 4_000, 0, '2026-11-25T08:00:05.000Z'],
      ['transfer', 'failed', 'TR1', 'pay_1', 6_000, 100, '2026-11-25T09:30:00.000Z'],
      // A word Chapa's pages do not use is read as pending: never as settled.
      ['payment', 'pending', 'CHdef', 'ord_y-3c4d', 500, 0, '2026-11-25T10:00:00.000Z'],
    ]);
  });

  it.each([
    ['', /empty/],
    ['a,b\n1,2', /lacks the columns time, type/],
    [`${SANDBOX_HEADER}\n2026-11-25T10:00:00Z,payment,success,1.234,0,ETB,a,SBX-1,o`, /line 2: amount is "1.234"/],
    [`${SANDBOX_HEADER}\n2026-11-25T10:00:00Z,payment,success,-5,0,ETB,a,SBX-1,o`, /line 2: amount is "-5"/],
    [`${SANDBOX_HEADER}\n2026-11-25T10:00:00Z,payment,success,1e3,0,ETB,a,SBX-1,o`, /amount is "1e3"/],
    [`${SANDBOX_HEADER}\nyesterday,payment,success,1,0,ETB,a,SBX-1,o`, /line 2: time is "yesterday"/],
    [`${SANDBOX_HEADER}\n2026-11-25T10:00:00Z,chargeback,success,1,0,ETB,a,SBX-1,o`, /type "chargeback"/],
    [`${SANDBOX_HEADER}\n2026-11-25T10:00:00Z,payment,success,1,0,USD,a,SBX-1,o`, /currency "USD"/],
    [`${SANDBOX_HEADER}\n2026-11-25T10:00:00Z,payment,success,1,0,ETB`, /not readable CSV/],
    [`${SANDBOX_HEADER}\n2026-11-25T10:00:00Z,payment,success,1,0,ETB,a,,o`, /provider_reference is empty/],
  ])('refuses an unreadable file, naming what is wrong (%#)', (csv, message) => {
    expect(() => parseStatement('sandbox', csv)).toThrow(StatementUnreadable);
    expect(() => parseStatement('sandbox', csv)).toThrow(message);
  });
});

describe('Addis Ababa days', () => {
  it('run from 21:00 UTC the evening before, all year', () => {
    expect(addisDay('2026-11-25')).toEqual({ from: new Date('2026-11-24T21:00:00.000Z'), to: new Date('2026-11-25T21:00:00.000Z') });
    expect(addisDay('2027-07-01').from.toISOString()).toBe('2027-06-30T21:00:00.000Z');
    expect(addisDayOf(new Date('2026-11-25T20:59:59.999Z'))).toBe('2026-11-25');
    expect(addisDayOf(new Date('2026-11-25T21:00:00.000Z'))).toBe('2026-11-26');
    expect(addisTime(new Date('2026-11-25T21:00:00.000Z'))).toBe('2026-11-26T00:00:00.000+03:00');
  });

  it.each(['2026-02-30', '25-11-2026', '2026-11-25T00:00'])('refuses %s', (day) => expect(() => addisDay(day)).toThrow('is not a date'));
});
