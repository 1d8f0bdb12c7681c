/**
 * The values of a statement whose text is built for the shape of its request: `add` gives each value
 * its placeholder in the order added, so a filter the request leaves out is not in the text at all
 * rather than `($n IS NULL OR …)`. Statements run named and may be planned once for any values
 * (pg-client.ts); such a generic plan can neither drop an `IS NULL OR` branch nor bound an index scan
 * by it, while a text per shape gets a plan of its own with every condition it has an index bound.
 */
export class SqlParameters {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
