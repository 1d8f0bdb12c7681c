import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage, type ValidatorConstraintInterface } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import fc from 'fast-check';
import { ruleTest } from './rule-tests';

/** Every rule on a property of a class the API's or the web's controllers load (their bodies, queries and nested classes). */
function loadedRules(): ValidationMetadata[] {
  for (const app of ['api', 'web']) {
    const root = join(__dirname, '..', '..', '..', 'apps', app, 'src');
    for (const file of readdirSync(root, { recursive: true }) as string[]) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      if (file.endsWith('.controller.ts')) require(join(root, file));
    }
  }
  const byTarget = (getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, ValidationMetadata[]> }).validationMetadatas;
  return [...byTarget.values()].flat().filter((metadata) => metadata.type === 'customValidation' || metadata.type === 'isDefined');
}

/** Values at a rule's edges: its numbers and one either side, texts and arrays of its lengths, its allowed values and others. */
function edgesOf(constraints: readonly unknown[] | undefined): unknown[] {
  const edges: unknown[] = [];
  for (const constraint of constraints ?? []) {
    if (typeof constraint === 'number') {
      edges.push(constraint - 1, constraint, constraint + 1, constraint - 0.5, constraint + 0.5, -constraint);
      for (const length of [constraint, constraint + 1]) {
        edges.push('x'.repeat(length), '\u{1F600}'.repeat(length), `${'x'.repeat(length)}\uFE0F`, Array.from({ length }, () => 1));
      }
    }
    if (Array.isArray(constraint)) edges.push(...constraint, 'other');
  }
  return edges;
}

const commonValues = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    'https://merchant.example/x',
    'http://localhost:3000/cb',
    'HTTPS://A.B',
    'ftp://x.example',
    'https://user:pw@x.example',
    'https://x_y.example',
    'a@example.com',
    'a@b',
    'a..b@example.com',
    '0911234567',
    '+251911234567',
    '2026-11-23T10:00:00Z',
    '2026-02-30T10:00:00Z',
    'Abebe\u202E',
    ' ',
    '',
    0,
    0.01,
    10.555,
    1e12,
    Number.NaN,
    null,
    true,
  ),
);

describe('rule tests', () => {
  const rules = loadedRules();

  it('give every rule the API and the web validate with its own test', () => {
    const without = rules.filter((metadata) => !ruleTest(metadata.name, metadata.constraints, metadata.propertyName));
    expect(without.map((metadata) => `${metadata.name} on ${metadata.propertyName}`)).toEqual([]);
  });

  it("answer as the rule's validators do, for every rule, at its edges and for values of every kind", () => {
    expect(rules.length).toBeGreaterThan(100);
    for (const metadata of rules) {
      const test = ruleTest(metadata.name, metadata.constraints, metadata.propertyName)!;
      const validators = getMetadataStorage()
        .getTargetValidatorConstraints(metadata.constraintCls)
        .map((constraint) => constraint.instance as ValidatorConstraintInterface);
      const edges = edgesOf(metadata.constraints);
      const values = edges.length > 0 ? fc.oneof(commonValues, fc.constantFrom(...edges)) : commonValues;
      fc.assert(
        fc.property(values, (value) => {
          const args = { targetName: 'Body', property: metadata.propertyName, object: {}, value, constraints: metadata.constraints };
          const expected = validators.every((validator) => validator.validate(value, args) === true);
          expect([metadata.name, metadata.constraints, value, test(value)]).toEqual([metadata.name, metadata.constraints, value, expected]);
        }),
        { numRuns: 150 },
      );
    }
  });
});
