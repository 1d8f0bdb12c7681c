import { checkDisplayText } from './display-text';

describe('checkDisplayText', () => {
  it.each(['Abebe Kebede', 'አበበ ከበደ', "Ma'ed O'Neil-Tesfaye", 'Café Addis 2'])('takes %j', (name) => {
    expect(() => checkDisplayText(name, 'holderName')).not.toThrow();
  });

  it.each([
    ['', 'holderName must not be blank'],
    ['   ', 'holderName must not be blank'],
    ['Abebe\u202Eekebek', 'holderName must not hold control or format characters (U+202E at position 6)'],
    ['Abe\u200Bbe', '(U+200B at position 4)'],
    ['Abe\u200Cbe', '(U+200C'],
    ['Abe\u200Dbe', '(U+200D'],
    ['Abe\u2060be', '(U+2060'],
    ['Abe\uFEFFbe', '(U+FEFF'],
    ['Abebe\nKebede', '(U+000A at position 6)'],
    ['Abebe\tKebede', '(U+0009'],
    ['\u0085Abebe', '(U+0085 at position 1)'],
  ])('refuses %j', (name, message) => {
    expect(() => checkDisplayText(name, 'holderName')).toThrow(expect.objectContaining({ code: 'INVALID_DISPLAY_TEXT', message: expect.stringContaining(message) }));
  });
});
