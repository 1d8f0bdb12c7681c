import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage as transformerMetadata } from 'class-transformer/cjs/storage';
import { getMetadataStorage, type ValidationArguments, type ValidatorConstraintInterface } from 'class-validator';
import type { ConstraintMetadata } from 'class-validator/types/metadata/ConstraintMetadata';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { ruleTest } from './rule-tests';

/** A DTO class: what NestJS hands a pipe as the parameter's metatype. */
export type Dto = new () => object;

/** One rule on a property, compiled: its verdict on the property's value in the object being checked. */
type Check = (value: unknown, object: object) => boolean | Unsure;

interface PropertyPlan {
  name: string;
  /** IsOptional, ValidateIf: when one says no, nothing else is checked. */
  conditions: ((object: object, value: unknown) => boolean)[];
  /** IsDefined and every other constraint, each compiled once (compileCheck). */
  checks: Check[];
  /** The class a ValidateNested property is built as (its @Type). */
  nested?: Dto;
}

/**
 * Read once per class into arrays, each rule compiled with its class's name: every body checks each of its
 * properties, and a Map's entries, a closure made per property and `type.name` (a native getter) per rule cost the
 * bench's create body about 6 µs of 46 (accept's CPU time, interleaved A/B in one process).
 */
interface ClassPlan {
  type: Dto;
  /** By name, for build; the same plans as `list`. */
  properties: Map<string, PropertyPlan>;
  list: PropertyPlan[];
}

/** Marks a body the plan cannot vouch for: only the full pipe can say what is wrong with it, or what it becomes. */
const UNSURE = Symbol('unsure');
type Unsure = typeof UNSURE;

const HANDLED_TYPES = new Set(['customValidation', 'conditionalValidation', 'nestedValidation', 'isDefined', 'whitelistValidation']);
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The request validation pipe (class-transformer's plainToInstance, then class-validator with
 * `whitelist`) costs a create escrow a quarter of its API time, mostly in their generic machinery
 * (metadata looked up and filtered on every call, an error object per property, promises). A plan is
 * the same DTO metadata read once per class: it builds the instance as plainToInstance does, and
 * runs each rule class-validator would run on it as a test compiled once (rule-tests.ts: class-validator's own rule
 * functions and the domain rules called directly, any other rule through its validator); a body with a property its class
 * (or a nested one) does not declare is never the plan's, since the full pipe refuses it (closed bodies). It only ever answers "valid, and here is the DTO": a body it
 * finds invalid, or cannot be sure of, goes through the full pipe, which writes the messages. A class
 * using anything the plan does not reproduce (groups, async or promise validation, @Transform,
 * @Expose/@Exclude, discriminators) gets no plan and always takes the full pipe.
 */
export class ValidationPlans {
  private readonly plans = new Map<Dto, ClassPlan | null>();

  /** The DTO the full pipe would return for `body`, or undefined when the full pipe must decide. */
  accept(type: Dto, body: object): object | undefined {
    const plan = this.planFor(type);
    if (!plan) return undefined;
    const built = this.build(plan, body);
    if (built === UNSURE || this.check(plan, built) !== true) return undefined;
    return built;
  }

  private planFor(type: Dto): ClassPlan | null {
    if (this.plans.has(type)) return this.plans.get(type)!;
    // A class that refers to itself finds no plan while its own is being made, and so gets none.
    this.plans.set(type, null);
    const plan = this.compile(type);
    this.plans.set(type, plan);
    return plan;
  }

  private compile(type: Dto): ClassPlan | null {
    const storage = getMetadataStorage();
    const metadatas = storage.getTargetValidationMetadatas(type, undefined as unknown as string, false, false);
    if (metadatas.length === 0) return null;
    if (transformerMetadata.getExposedMetadatas(type).length > 0 || transformerMetadata.getExcludedMetadatas(type).length > 0) return null;
    const sample = new type() as Record<string, unknown>;
    const properties = new Map<string, PropertyPlan>();
    for (const metadata of metadatas) {
      if (!HANDLED_TYPES.has(metadata.type) || (metadata.groups?.length ?? 0) > 0 || metadata.always) return null;
      const name = metadata.propertyName;
      if (RESERVED_KEYS.has(name) || Object.getOwnPropertyDescriptor(type.prototype, name) || typeof sample[name] === 'function') return null;
      if (transformerMetadata.findTransformMetadatas(type, name, TransformationType.PLAIN_TO_CLASS).length > 0) return null;
      let property = properties.get(name);
      if (!property) {
        property = { name, conditions: [], checks: [] };
        properties.set(name, property);
      }
      if (metadata.type === 'conditionalValidation') property.conditions.push(metadata.constraints[0] as PropertyPlan['conditions'][number]);
      if (metadata.type === 'customValidation' || metadata.type === 'isDefined') {
        const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
        if (constraints.some((constraint) => constraint.async)) return null;
        property.checks.push(compileCheck(metadata, constraints, type.name));
      }
      if (metadata.type === 'nestedValidation') {
        const nested = this.nestedType(type, name);
        if (!nested || !this.planFor(nested)) return null;
        property.nested = nested;
      }
    }
    for (const [name, property] of properties) {
      // class-transformer builds a typed property whether or not it is validated as nested, and only
      // a nested one has its unknown properties refused: the two must go together.
      if (!property.nested && transformerMetadata.findTypeMetadata(type, name)) return null;
    }
    return { type, properties, list: [...properties.values()] };
  }

  private nestedType(type: Dto, name: string): Dto | undefined {
    const metadata = transformerMetadata.findTypeMetadata(type, name);
    if (!metadata || metadata.options?.discriminator || metadata.reflectedType === Map) return undefined;
    const nested: unknown = metadata.typeFunction({ newObject: {}, object: {}, property: name });
    if (typeof nested !== 'function' || [String, Number, Boolean, Date, Buffer, Map, Set, Array, Object].includes(nested as never)) return undefined;
    return nested as Dto;
  }

  /** plainToInstance: the class's own instance, in the body's order; a property it does not know leaves it to the full pipe. */
  private build(plan: ClassPlan, body: object): object | Unsure {
    const source = body as Record<string, unknown>;
    if (Object.getPrototypeOf(source) !== Object.prototype) return UNSURE;
    const built = new plan.type() as Record<string, unknown>;
    for (const key of Object.keys(source)) {
      if (RESERVED_KEYS.has(key)) return UNSURE;
      const property = plan.properties.get(key);
      // A field the class does not declare is refused (closed bodies): only the full pipe names it.
      if (!property) return UNSURE;
      const value = property.nested ? this.buildNested(property.nested, source[key]) : copyPlain(source[key]);
      if (value === UNSURE) return UNSURE;
      built[key] = value;
    }
    return built;
  }

  private buildNested(type: Dto, value: unknown): unknown {
    if (value === null || value === undefined) return value;
    const plan = this.planFor(type)!;
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      for (const item of value) {
        if (item === null || typeof item !== 'object' || Array.isArray(item)) return UNSURE;
        const built = this.build(plan, item);
        if (built === UNSURE) return UNSURE;
        items.push(built);
      }
      return items;
    }
    return typeof value === 'object' ? this.build(plan, value) : UNSURE;
  }

  /** class-validator's verdict on a built instance: true only when every constraint holds. */
  private check(plan: ClassPlan, instance: object): boolean | Unsure {
    const object = instance as Record<string, unknown>;
    for (const property of plan.list) {
      const value = object[property.name];
      if (!holds(property.conditions, object, value)) continue;
      for (const check of property.checks) {
        const verdict = check(value, object);
        if (verdict !== true) return verdict;
      }
      if (property.nested && value !== undefined) {
        const verdict = this.checkNested(property.nested, value);
        if (verdict !== true) return verdict;
      }
    }
    return true;
  }

  /** Every item was built by buildNested as an instance of `type` (its plan's class), so only its rules are left to check; null is no instance. */
  private checkNested(type: Dto, value: unknown): boolean | Unsure {
    if (value === null) return false;
    const plan = this.planFor(type)!;
    if (!Array.isArray(value)) return this.check(plan, value as object);
    for (const item of value as object[]) {
      const verdict = this.check(plan, item);
      if (verdict !== true) return verdict;
    }
    return true;
  }
}

function holds(conditions: PropertyPlan['conditions'], object: object, value: unknown): boolean {
  for (const condition of conditions) if (!condition(object, value)) return false;
  return true;
}

/**
 * One rule as class-validator's executor applies it (its validateIf, then each item of an array when `each`), with the
 * rule's own test where rule-tests.ts has one, and otherwise its validators called with class-validator's arguments.
 */
function compileCheck(metadata: ValidationMetadata, constraints: ConstraintMetadata[], targetName: string): Check {
  const property = metadata.propertyName;
  const test: Check =
    ruleTest(metadata.name, metadata.constraints, property) ??
    // The arguments name the property's value, the whole array for a rule on each item, as class-validator's do.
    ((value, object) => valid(constraints, value, { targetName, property, object, value: (object as Record<string, unknown>)[property], constraints: metadata.constraints }));
  const checkValue: Check = metadata.each ? (value, object) => (Array.isArray(value) ? eachValid(test, value, object) : test(value, object)) : test;
  const validateIf = metadata.validateIf;
  return validateIf ? (value, object) => !validateIf(object, value) || checkValue(value, object) : checkValue;
}

function valid(constraints: ConstraintMetadata[], value: unknown, args: ValidationArguments): boolean | Unsure {
  for (const constraint of constraints) {
    const verdict = (constraint.instance as ValidatorConstraintInterface).validate(value, args);
    if (typeof verdict !== 'boolean') return UNSURE;
    if (!verdict) return false;
  }
  return true;
}

function eachValid(test: Check, values: unknown[], object: object): boolean | Unsure {
  for (const value of values) {
    const verdict = test(value, object);
    if (verdict !== true) return verdict;
  }
  return true;
}

/** What plainToInstance makes of an untyped value: primitives as they are, arrays and plain objects copied deeply. */
function copyPlain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) {
      const copied = copyPlain(item);
      if (copied === UNSURE) return UNSURE;
      items.push(copied);
    }
    return items;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return UNSURE;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (RESERVED_KEYS.has(key)) return UNSURE;
    const copied = copyPlain((value as Record<string, unknown>)[key]);
    if (copied === UNSURE) return UNSURE;
    copy[key] = copied;
  }
  return copy;
}
