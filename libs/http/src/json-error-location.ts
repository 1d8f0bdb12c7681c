/** Where a text stops being JSON, and what was found there (RFC 8259's grammar, walked once). */
export interface JsonErrorLocation {
  /** Character offset of the first character that cannot continue the JSON (the text's length at its end). */
  offset: number;
  line: number;
  column: number;
  /** `end of input`, or the character, quoted. */
  found: string;
}

class Stop extends Error {
  constructor(readonly at: number) {
    super('not JSON');
  }
}

/**
 * JSON.parse on Node 20 says a body is invalid without saying where; a client fixing its request
 * wants the line and column. Undefined when the text is valid JSON.
 */
export function jsonErrorLocation(text: string): JsonErrorLocation | undefined {
  let i = 0;
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const expect = (char: string) => {
    if (text[i] !== char) throw new Stop(i);
    i++;
  };
  const literal = (word: string) => {
    for (const char of word) expect(char);
  };
  const string = () => {
    expect('"');
    for (;;) {
      if (i >= text.length) throw new Stop(i);
      const char = text[i];
      if (char === '"') return void i++;
      if (char < ' ') throw new Stop(i);
      if (char === '\\') {
        i++;
        if (text[i] === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? '')) throw new Stop(i);
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[i] ?? 'x') || i >= text.length) throw new Stop(i);
      }
      i++;
    }
  };
  const digits = () => {
    const start = i;
    while (/[0-9]/.test(text[i] ?? '')) i++;
    if (i === start) throw new Stop(i);
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        string();
        space();
        expect(':');
        value();
        space();
        if (text[i] === ',') i++;
        else return expect('}');
      }
    }
    if (char === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ',') i++;
        else return expect(']');
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    if (char === '-' || /[0-9]/.test(char ?? '')) return number();
    throw new Stop(i);
  };
  try {
    value();
    space();
    if (i < text.length) throw new Stop(i);
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const before = text.slice(0, error.at);
    const line = before.split('\n').length;
    const column = error.at - before.lastIndexOf('\n');
    return { offset: error.at, line, column, found: error.at >= text.length ? 'end of input' : JSON.stringify(text[error.at]) };
  }
}
