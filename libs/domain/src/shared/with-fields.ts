/**
 * `{ ...source, ...fields }`, the same object, at a fifth to a third of the cost where `fields` adds names
 * `source` lacks: on Node 20 each field a literal writes after a spread costs about 1 µs (an 11-field answer
 * and `livemode`: 1.3 µs against 0.3; three fields: 4.4 against 0.4; a 24-column row and two: 5.5 against
 * 2.0, interleaved A/B), and the hot paths (sealing every event, the inline view's row, an answer's
 * `livemode`) did that on every request. Object.assign copies what a spread copies (own
 * enumerable properties, getters read) but *sets* each one on the new object where a spread defines it;
 * the two differ only for an own `__proto__`, which Object.assign would make the prototype: such a
 * source takes the spread. `fields` is always the caller's literal, whose names are its own.
 */
export function withFields<Source extends object, Fields extends object>(source: Source, fields: Fields): Omit<Source, keyof Fields> & Fields {
  if (Object.hasOwn(source, '__proto__')) return { ...source, ...fields };
  return Object.assign({}, source, fields);
}
