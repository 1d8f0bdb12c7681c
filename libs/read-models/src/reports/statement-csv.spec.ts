import { statementCsv, type Statement } from './statement';

const credit = {
  eventId: 'e-1',
  type: 'AllocationReleased',
  source: 'esc_1',
  description: 'Allocation released',
  recordedAt: '2030-01-01T10:00:00.000Z',
  amount: 90_000,
  gross: 100_000,
  fee: 10_000,
  recovered: 0,
  availableOn: '2030-01-04',
  reserve: 9_000,
  reserveAvailableOn: '2030-01-08',
  counterparty: 'Merkato Online',
  sourceDescription: 'Coffee beans',
  escrowId: 'esc_1',
  orderId: null,
};
const statement: Statement = { from: '2030-01-01T00:00:00.000Z', to: '2030-01-02T00:00:00.000Z', opening: 5_000, movements: [credit], closing: 95_000, livemode: false };

describe('the statement CSV', () => {
  const lines = statementCsv(statement).trim().split('\r\n').map((line) => line.split(','));

  it('gives every line, the opening and closing ones too, each column of its header', () => {
    expect(lines.map((line) => line.length)).toEqual([18, 18, 18, 18]);
  });

  it('says the mode on every line and puts a movement in its columns', () => {
    const [header, opening, movement, closing] = lines;
    const at = (line: string[], column: string) => line[header.indexOf(column)];
    expect([opening, movement, closing].map((line) => at(line, 'livemode'))).toEqual(['false', 'false', 'false']);
    expect([at(opening, 'type'), at(opening, 'balance'), at(closing, 'type'), at(closing, 'balance')]).toEqual(['OPENING', '50', 'CLOSING', '950']);
    expect(header.slice(6).map((column) => at(movement, column))).toEqual(['900', '950', '0', '1000', '100', 'Merkato Online', 'Coffee beans', 'false', 'esc_1', '', '90', '2030-01-08']);
  });
});
