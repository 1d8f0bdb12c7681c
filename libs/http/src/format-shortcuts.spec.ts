import { isEmail, isURL } from 'class-validator';
import fc from 'fast-check';
import { URL_RULES } from './payment-request.dto';
import { emailTest, urlTest } from './format-shortcuts';

/** Pieces of URLs and addresses, the plain ones and the characters and lengths at their edges. */
const label = fc.oneof(
  fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/),
  fc.constantFrom('example', 'xn--80ak6aa92e', 'a', '-a', 'a-', '_x', 'ex_ample', '1', '123', 'localhost', 'ÿ', 'ｅ', 'a'.repeat(63), 'b'.repeat(64), 'A1', 'com'),
);
const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
const rest = fc.oneof(
  fc.constant(''),
  fc.stringMatching(/^[/?#][a-zA-Z0-9/?#&=%:@.~_-]{0,20}$/),
  fc.constantFrom('/', '/a b', '/<x>', '?q=1', '#f', '/p@host', '?a@b', '/x\ty', '//', '/%zz', `/${'x'.repeat(2100)}`),
);
const port = fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 70000 }).map((n) => `:${n}`), fc.constantFrom(':', ':08', ':65535', ':65536', ':1a'));
const protocol = fc.constantFrom('http://', 'https://', 'HTTPS://', 'hTtP://', 'ftp://', 'http:/', 'http:', '//', '', 'javascript:');
const urlLike = fc.oneof(
  fc.tuple(protocol, fc.oneof(fc.constant(''), fc.constantFrom('user:pw@', 'u@', ':@', '@')), host, port, rest).map((parts) => parts.join('')),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('https://[::1]:8080/x', 'http://127.0.0.1/', 'http://1.2.3.4:99/x', 'mailto:a@b.co', 'https://a.b.c.', 'https://exa mple.com'),
);

const localPart = fc.oneof(
  fc.stringMatching(/^[a-zA-Z0-9_+-]{1,10}(\.[a-zA-Z0-9_+-]{1,6}){0,2}$/),
  fc.constantFrom('a..b', '.a', 'a.', '"quoted"', 'a"b', 'ü', 'x'.repeat(64), 'y'.repeat(65), "o'neil", 'a b', 'a@b'),
);
const tld = fc.oneof(fc.stringMatching(/^[a-z]{1,5}$/), fc.constantFrom('c0m', '123', 'xn--p1ai', 'COM', 'a'.repeat(63), 'b'.repeat(64), 'münchen'));
const emailLike = fc.oneof(
  fc.tuple(localPart, fc.array(label, { minLength: 0, maxLength: 3 }), tld).map(([user, labels, top]) => `${user}@${[...labels, top].join('.')}`),
  fc.tuple(fc.stringMatching(/^[a-z]{1,60}$/), fc.stringMatching(/^[a-z]{1,60}$/)).map(([a, b]) => `${'u'.repeat(40)}@${a}.${b}.${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.com`),
  fc.string({ maxLength: 30 }),
  fc.constantFrom('a@b', 'a@b.c', 'a@[127.0.0.1]', 'a@localhost', 'Display <a@b.co>', 'a@-b.co', 'a@b-.co', 'a@b_c.co', ''),
);

describe('format shortcuts', () => {
  it('answer as isURL does under the API options, and under options that turn the shortcut off', () => {
    const optionSets = [
      URL_RULES,
      { require_protocol: true, protocols: ['http', 'https'], require_tld: false },
      { require_tld: false, protocols: ['https'] },
      { require_tld: false, host_blacklist: ['example.com'] },
      { require_tld: false, max_allowed_length: 30 },
      undefined,
    ];
    for (const options of optionSets) {
      const test = urlTest(options);
      fc.assert(
        fc.property(urlLike, (text) => {
          expect(test(text)).toBe(isURL(text, { ...options }));
        }),
        { numRuns: 3000 },
      );
    }
  });

  it('answer as isEmail does with its default options', () => {
    for (const options of [null, undefined, { host_blacklist: ['b.co'] }]) {
      const test = emailTest(options);
      fc.assert(
        fc.property(emailLike, (text) => {
          expect(test(text)).toBe(isEmail(text, options ?? undefined));
        }),
        { numRuns: 5000 },
      );
    }
  });

  it('are not vacuous: the generated texts include plain ones that pass and near ones that fail', () => {
    const sample = fc.sample(urlLike, 2000);
    expect(sample.filter((text) => isURL(text, { ...URL_RULES })).length).toBeGreaterThan(200);
    expect(sample.filter((text) => !isURL(text, { ...URL_RULES })).length).toBeGreaterThan(200);
    const emails = fc.sample(emailLike, 2000);
    expect(emails.filter((text) => isEmail(text)).length).toBeGreaterThan(200);
    expect(emails.filter((text) => !isEmail(text)).length).toBeGreaterThan(200);
  });
});
