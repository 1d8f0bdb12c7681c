import fc from 'fast-check';
import { InvalidInput } from './domain-error';
import { maskPhone, normalisePhone } from './phone';

describe('Ethiopian mobile numbers are normalised to E.164', () => {
  it.each([
    ['0911234567', '+251911234567'],
    ['0711234567', '+251711234567'],
    ['+251911234567', '+251911234567'],
    ['+251711234567', '+251711234567'],
    ['251911234567', '+251911234567'],
    ['251711234567', '+251711234567'],
    ['0911 234 567', '+251911234567'],
    ['091-123-4567', '+251911234567'],
    ['+251 91 123 4567', '+251911234567'],
    ['+251-911-234-567', '+251911234567'],
    ['(+251) 911 234567', '+251911234567'],
    [' 0911234567 ', '+251911234567'],
  ])('%p → %p', (input, e164) => {
    expect(normalisePhone(input)).toBe(e164);
  });

  it('reads every common form of the same number as one number', () => {
    fc.assert(
      fc.property(fc.constantFrom('7', '9'), fc.stringMatching(/^\d{8}$/), (operator, rest) => {
        const local = `${operator}${rest}`;
        const forms = [`0${local}`, `+251${local}`, `251${local}`, `+251 ${local.slice(0, 2)} ${local.slice(2, 5)} ${local.slice(5)}`, `0${local.slice(0, 2)}-${local.slice(2)}`];
        for (const form of forms) expect(normalisePhone(form)).toBe(`+251${local}`);
      }),
    );
  });

  it.each([
    ['a landline (011…)', '0111234567'],
    ['an unknown prefix (08…)', '0811234567'],
    ['too few digits', '091123456'],
    ['too many digits', '09112345678'],
    ['too many digits after +251', '+2519112345678'],
    ['a missing trunk prefix', '911234567'],
    ['the trunk 0 kept after the country code', '+2510911234567'],
    ['another country', '+14155552671'],
    ['a double-zero international prefix', '00251911234567'],
    ['a plus sign on the local form', '+0911234567'],
    ['letters', '09112345ab'],
    ['an empty string', ''],
    ['only separators', ' - - '],
  ])('rejects %s (%p)', (_case, input) => {
    expect(() => normalisePhone(input)).toThrow(InvalidInput);
  });

  it('names the field in its message', () => {
    expect(() => normalisePhone('12345')).toThrow(/^customerPhoneNumber must be an Ethiopian mobile number/);
    expect(() => normalisePhone('12345', 'customer.phone')).toThrow(/^customer\.phone must be/);
  });

  describe('maskPhone shows a public page only the operator and the last three digits', () => {
    it.each([
      ['+251911234567', '+251 9** *** 567'],
      ['+251711234890', '+251 7** *** 890'],
    ])('%p → %p', (e164, masked) => {
      expect(maskPhone(e164)).toBe(masked);
    });

    it('never reveals the middle digits', () => {
      fc.assert(
        fc.property(fc.constantFrom('7', '9'), fc.stringMatching(/^\d{8}$/), (operator, rest) => {
          const masked = maskPhone(normalisePhone(`0${operator}${rest}`));
          expect(masked).toBe(`+251 ${operator}** *** ${rest.slice(-3)}`);
          expect(masked.replace(/\D/g, '')).toBe(`251${operator}${rest.slice(-3)}`);
        }),
      );
    });
  });
});
