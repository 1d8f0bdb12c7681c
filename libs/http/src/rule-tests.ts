import {
  ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE,
  arrayMaxSize,
  arrayMinSize,
  IS_ARRAY,
  IS_BOOLEAN,
  IS_DEFINED,
  IS_EMAIL,
  IS_IN,
  IS_INT,
  IS_NOT_EMPTY,
  IS_NUMBER,
  IS_OBJECT,
  IS_STRING,
  IS_URL,
  isArray,
  isBoolean,
  isDefined,
  isIn,
  isInt,
  isNotEmpty,
  isNumber,
  isObject,
  isString,
  MATCHES,
  matches,
  MAX,
  MAX_LENGTH,
  max,
  maxLength,
  MIN,
  min,
} from 'class-validator';
import { emailTest, urlTest } from './format-shortcuts';
import { domainRuleTest } from './validators';

/** One rule's verdict on a value, without class-validator's arguments (a rule that reads them has no test here). */
export type RuleTest = (value: unknown) => boolean;

/**
 * class-validator's own rules, by the names its decorators register them under, each as the function its validator
 * calls with the decorator's constraints (class-validator/cjs/decorator/**): the same verdict, without an arguments
 * object per value or the executor's generic path. maxLength, isUrl and isEmail take shortcuts that answer as it does.
 */
const CLASS_VALIDATOR_RULES: Readonly<Record<string, (constraints: readonly unknown[]) => RuleTest>> = {
  [IS_DEFINED]: () => isDefined,
  [IS_STRING]: () => isString,
  [IS_INT]: () => isInt,
  [IS_BOOLEAN]: () => isBoolean,
  [IS_NUMBER]: ([options]) => (value) => isNumber(value, options as Parameters<typeof isNumber>[1]),
  [IS_NOT_EMPTY]: () => isNotEmpty,
  [IS_ARRAY]: () => isArray,
  [IS_OBJECT]: () => isObject,
  [IS_IN]: ([allowed]) => (value) => isIn(value, allowed as readonly unknown[]),
  [MIN]: ([bound]) => (value) => min(value, bound as number),
  [MAX]: ([bound]) => (value) => max(value, bound as number),
  [ARRAY_MIN_SIZE]: ([size]) => (value) => arrayMinSize(value, size as number),
  [ARRAY_MAX_SIZE]: ([size]) => (value) => arrayMaxSize(value, size as number),
  [MATCHES]: ([pattern, modifiers]) => (value) => (matches as (value: unknown, pattern: unknown, modifiers: unknown) => boolean)(value, pattern, modifiers),
  // A text no longer than the bound in UTF-16 units is no longer in isLength's count, which only ever subtracts (surrogate pairs, variation selectors).
  [MAX_LENGTH]: ([bound]) => (value) => typeof value === 'string' && (value.length <= (bound as number) || maxLength(value, bound as number)),
  [IS_URL]: ([options]) => {
    const test = urlTest(options as Parameters<typeof urlTest>[0]);
    return (value) => typeof value === 'string' && test(value);
  },
  [IS_EMAIL]: ([options]) => {
    const test = emailTest(options as Parameters<typeof emailTest>[0]);
    return (value) => typeof value === 'string' && test(value);
  },
};

/**
 * The test of one rule as it stands on a property (a validation metadata's name and constraints): class-validator's own
 * rules and this library's domain rules (validators.ts); undefined for any other, which the plan runs through its validator.
 */
export function ruleTest(name: string | undefined, constraints: readonly unknown[] | undefined, property: string): RuleTest | undefined {
  const domain = domainRuleTest(constraints, property);
  if (domain) return domain;
  const compile = name === undefined || !Object.hasOwn(CLASS_VALIDATOR_RULES, name) ? undefined : CLASS_VALIDATOR_RULES[name];
  return compile?.(constraints ?? []);
}
