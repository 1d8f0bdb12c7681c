import { isEmail, isURL } from 'class-validator';

/**
 * validator.js's isURL and isEmail (which class-validator's IsUrl and IsEmail call) merge their options with defaults, split the text several times and check each
 * part with regular expressions: together about a tenth of a create body's validation. Most URLs and addresses a
 * client sends have a plain shape that both accept at once; these tests say yes to that shape in one regular
 * expression and hand anything else to validator.js, so they answer exactly as validator.js does as long as
 * every text the shortcut takes is one validator.js takes (format-shortcuts.spec.ts checks that, over generated
 * texts of the shape and near it).
 */

/**
 * `http(s)://` (any case), a host of LDH labels whose last starts with a letter (so no IP address or numeric top-level
 * domain, which isFQDN treats apart), a port of 1–9999, then a path, query or fragment without white space, `<` or `>`.
 * Without `@` before the path there are no credentials: validator.js reads the host as this does.
 */
const PLAIN_HTTP_URL = /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?(?::[1-9][0-9]{0,3})?(?:[/?#][^\s<>]*)?$/i;

/** An address of dot-separated runs of letters, digits, `_`, `+` and `-`, at a domain of LDH labels ending in letters. */
const PLAIN_EMAIL = /^[a-z0-9_+-]+(?:\.[a-z0-9_+-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** validator.js's own limits: the whole address, and the part before `@` in bytes (one a character in the plain shape). */
const MAX_EMAIL_LENGTH = 254;
const MAX_EMAIL_USER_LENGTH = 64;

/** The default of isURL's `max_allowed_length`. */
const MAX_URL_LENGTH = 2084;

type UrlOptions = Parameters<typeof isURL>[1];

/**
 * Whether every plain URL passes isURL under these options: none of them may narrow what a plain URL is (a top-level
 * domain required, a port required, hosts listed, fragments or queries refused, protocols without http and https).
 */
function plainUrlsPass(options: UrlOptions): boolean {
  const o = options ?? {};
  const protocols = o.protocols ?? ['http', 'https', 'ftp'];
  return (
    o.require_tld === false &&
    !o.require_port &&
    o.host_whitelist === undefined &&
    o.host_blacklist === undefined &&
    o.allow_fragments !== false &&
    o.allow_query_components !== false &&
    o.validate_length !== false &&
    (o.max_allowed_length === undefined || typeof o.max_allowed_length === 'number') &&
    (o.require_valid_protocol === false || (protocols.includes('http') && protocols.includes('https')))
  );
}

/** class-validator's isURL(text, options) for a string, with the plain shape answered at once when the options allow it. */
export function urlTest(options: UrlOptions): (text: string) => boolean {
  if (!plainUrlsPass(options)) return (text) => isURL(text, options);
  const maxLength = typeof options?.max_allowed_length === 'number' ? options.max_allowed_length : MAX_URL_LENGTH;
  return (text) => (text.length <= maxLength && PLAIN_HTTP_URL.test(text)) || isURL(text, options);
}

type EmailOptions = Parameters<typeof isEmail>[1];

/** class-validator's isEmail(text, options) for a string, with the plain shape answered at once under validator.js's default options. */
export function emailTest(options: EmailOptions | null): (text: string) => boolean {
  // Any option given may narrow what is accepted (hosts listed, characters refused): only the defaults take the shortcut.
  if (options !== undefined && options !== null) return (text) => isEmail(text, options);
  return (text) => (text.length <= MAX_EMAIL_LENGTH && text.indexOf('@') <= MAX_EMAIL_USER_LENGTH && PLAIN_EMAIL.test(text)) || isEmail(text);
}
