import { checkDisplayName, checkDisplayText, checkSingleLineText } from './display-text';

describe('checkDisplayText', () => {
  it.each(['Abebe Kebede', 'አበበ ከበደ', "Ma'ed O'Neil-Tesfaye", 'Café Addis 2', '—'])('takes %j', (text) => {
    expect(() => checkDisplayText(text, 'reason')).not.toThrow();
  });

  it.each([
    ['', 'reason must not be blank'],
    ['   ', 'reason must not be blank'],
    ['\u3164', 'reason must not be blank'],
    ['\u2800\u2800', 'reason must not be blank'],
    ['\u115F\u1160\uFFA0', 'reason must not be blank'],
    ['\u00A0\u2003\u3000', 'reason must not be blank'],
    ['Abebe\u202Eekebek', 'reason must not hold control, format or line-breaking characters (U+202E at position 6)'],
    ['Abe\u200Bbe', '(U+200B at position 4)'],
    ['Abe\u200Cbe', '(U+200C'],
    ['Abe\u200Dbe', '(U+200D'],
    ['Abe\u2060be', '(U+2060'],
    ['Abe\uFEFFbe', '(U+FEFF'],
    ['Abebe\nKebede', '(U+000A at position 6)'],
    ['Abebe\tKebede', '(U+0009'],
    ['\u0085Abebe', '(U+0085 at position 1)'],
    ['Abebe\u2028Kebede', '(U+2028 at position 6)'],
    ['Abebe\u2029Kebede', '(U+2029 at position 6)'],
    ['Abebe\u00ADKebede', '(U+00AD'],
  ])('refuses %j', (text, message) => {
    expect(() => checkDisplayText(text, 'reason')).toThrow(expect.objectContaining({ code: 'INVALID_DISPLAY_TEXT', message: expect.stringContaining(message) }));
  });
});

describe('checkDisplayName', () => {
  it.each(['Abebe Kebede', 'አበበ', '7', 'Shop #1'])('takes %j', (name) => {
    expect(() => checkDisplayName(name, 'name')).not.toThrow();
  });

  it.each([
    ['\u3164', 'name must not be blank'],
    ['\u2800', 'name must not be blank'],
    ['...', 'name must contain a letter or a digit'],
    ['\u3164-\u3164', 'name must contain a letter or a digit'],
    ['Abe\u2028be', '(U+2028'],
  ])('refuses %j', (name, message) => {
    expect(() => checkDisplayName(name, 'name')).toThrow(expect.objectContaining({ code: 'INVALID_DISPLAY_TEXT', message: expect.stringContaining(message) }));
  });
});

describe('checkSingleLineText', () => {
  it('takes a reference as it was, blank included, and refuses what breaks or hides', () => {
    expect(() => checkSingleLineText('ORDER 1001', 'orderId')).not.toThrow();
    expect(() => checkSingleLineText('ORDER\u20281001', 'orderId')).toThrow(expect.objectContaining({ code: 'INVALID_DISPLAY_TEXT' }));
    expect(() => checkSingleLineText('ORDER\u200B1001', 'orderId')).toThrow(expect.objectContaining({ code: 'INVALID_DISPLAY_TEXT' }));
  });
});
