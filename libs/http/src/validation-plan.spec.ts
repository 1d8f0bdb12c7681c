import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, getMetadataStorage, registerDecorator, type ValidationArguments } from 'class-validator';
import fc from 'fast-check';
import { escrowRequest, orderRequest } from '../../../test/support/fixtures';
import { AllocationDto, AllocationMetadataDto, CreateEscrowDto, EscrowItemDto } from '../../../apps/api/src/escrows/create-escrow/create-escrow.dto';
import { CreateOrderDto } from '../../../apps/api/src/orders/create-order/create-order.dto';
import { type Dto, ValidationPlans } from './validation-plan';
import { fullValidationPipe, RequestValidationPipe } from './validation.pipe';

const BODY = 3; // RouteParamtypes.BODY

/** Every class a controller of the API takes as its @Body(), found by reading the controllers' own metadata. */
function bodyDtos(): Dto[] {
  const root = join(__dirname, '..', '..', '..', 'apps', 'api', 'src');
  const found = new Set<Dto>();
  for (const file of readdirSync(root, { recursive: true }) as string[]) {
    if (!file.endsWith('.controller.ts')) continue;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = require(join(root, file)) as Record<string, unknown>;
    for (const controller of Object.values(exported)) {
      if (typeof controller !== 'function') continue;
      for (const method of Object.getOwnPropertyNames(controller.prototype)) {
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number }>;
        const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, method) ?? []) as Dto[];
        for (const [key, { index }] of Object.entries(args)) {
          if (key.split(':')[0] === String(BODY) && types[index] && types[index] !== Object) found.add(types[index]);
        }
      }
    }
  }
  return [...found];
}

const pipe = fullValidationPipe();
const plans = new ValidationPlans();

/** A body as the API receives it: parsed from JSON text (in this realm: structuredClone's objects come from another). */
const received = (body: unknown) => JSON.parse(JSON.stringify(body)) as object;

/** What the full pipe and the plan make of one body (each gets its own copy: the pipe changes what it is given). */
async function both(type: Dto, body: unknown) {
  const planned = plans.accept(type, received(body));
  try {
    return { planned, piped: await pipe.transform(received(body), { type: 'body', metatype: type }), refused: false };
  } catch {
    return { planned, piped: undefined, refused: true };
  }
}

/** A key the plan leaves to the full pipe whatever the rest says (what plainToInstance does with it is its own). */
function hasOddKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return Object.keys(value).some((key) => ['__proto__', 'constructor', 'prototype'].includes(key) || key in Object.prototype || hasOddKey((value as Record<string, unknown>)[key]));
}

/** The plan accepts exactly what the full pipe accepts (bodies with odd keys aside), and builds the same DTO. */
async function expectAgreement(type: Dto, body: unknown): Promise<boolean> {
  const { planned, piped, refused } = await both(type, body);
  if (planned === undefined) {
    if (!hasOddKey(body)) expect(refused).toBe(true);
    return false;
  }
  expect(refused).toBe(false);
  // Same classes at every level, same properties (a declared but absent one included), same values.
  expect(planned).toStrictEqual(piped);
  return true;
}

/** The property names a DTO validates, for bodies that use them. */
function knownNames(type: Dto): string[] {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(type, undefined as unknown as string, false, false);
  return [...new Set(metadatas.map((m) => m.propertyName))];
}

const valueLike = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('ETB', 'PAID', 'FAILED', '0911234567', '+251911234567', 'https://merchant.example/x', 'a@example.com', '2026-11-23T10:00:00Z', ''),
  fc.constantFrom(0, 1, 10.5, 10.555, -1, 1e12, 250.75),
  fc.string({ maxLength: 300 }),
);

/** A valid body with one to three changes: a field removed, replaced, added, or an item's field changed. */
function mutated(valid: Record<string, unknown>, names: string[]) {
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), key: fc.constantFrom(...Object.keys(valid)) }),
    fc.record({ kind: fc.constant('set' as const), key: fc.constantFrom(...names, 'api_secret', 'extra'), value: valueLike }),
    fc.record({ kind: fc.constant('nested' as const), key: fc.constantFrom(...Object.keys(valid)), index: fc.nat(2), field: fc.constantFrom(...names, 'x'), value: valueLike }),
  );
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
    const body = received(valid) as Record<string, unknown>;
    for (const m of mutations) {
      if (m.kind === 'delete') delete body[m.key];
      if (m.kind === 'set') body[m.key] = m.value;
      if (m.kind === 'nested') {
        const target = body[m.key];
        const item = Array.isArray(target) ? target[m.index % Math.max(1, target.length)] : target;
        if (item && typeof item === 'object' && !Array.isArray(item)) (item as Record<string, unknown>)[m.field] = m.value;
      }
    }
    return body;
  });
}

describe('ValidationPlans', () => {
  it('finds the body classes of the API', () => {
    const names = bodyDtos().map((type) => type.name);
    expect(names).toEqual(expect.arrayContaining(['CreateEscrowDto', 'CreateOrderDto', 'VerifyPaymentDto', 'ReleaseAllocationDto']));
  });

  it('accepts a valid escrow and a valid order, building exactly what the full pipe builds', async () => {
    expect(await expectAgreement(CreateEscrowDto, escrowRequest())).toBe(true);
    expect(await expectAgreement(CreateEscrowDto, escrowRequest({ description: undefined, metadata: undefined }))).toBe(true);
    expect(await expectAgreement(CreateOrderDto, orderRequest())).toBe(true);
  });

  it('accepts only what the full pipe accepts, and then builds the same DTO (escrows and orders, changed at random)', async () => {
    for (const [type, valid] of [
      [CreateEscrowDto, escrowRequest()],
      [CreateOrderDto, orderRequest()],
    ] as const) {
      const names = knownNames(type).concat(['productId', 'item_name', 'quantity', 'unit_price', 'merchantId', 'amount', 'metadata', 'image_url']);
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(mutated(valid, names), async (body) => {
          if (await expectAgreement(type, body)) accepted += 1;
        }),
        { numRuns: 400 },
      );
      // Many changes keep a body valid (an optional field dropped, an unknown one added): the comparison is not vacuous.
      expect(accepted).toBeGreaterThan(40);
    }
  });

  it('agrees with the full pipe on every body class of the API, for bodies made of its own field names', async () => {
    let accepted = 0;
    for (const type of bodyDtos()) {
      const names = knownNames(type);
      const body = fc.dictionary(fc.constantFrom(...names, 'unknown'), valueLike, { maxKeys: names.length + 1 });
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          if (await expectAgreement(type, b)) accepted += 1;
        }),
        { numRuns: 150 },
      );
    }
    expect(accepted).toBeGreaterThan(0);
  });

  it('never accepts a body with a field its class, or a nested one, does not declare (closed bodies)', async () => {
    // Names of Object.prototype's members (valueOf, toString) class-transformer itself drops unseen: the plan refuses them, the full pipe does not yet.
    const unknownKey = fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !['__proto__', 'prototype'].includes(key) && !(key in Object.prototype));
    await fc.assert(
      fc.asyncProperty(unknownKey, fc.constantFrom('top', 'items', 'allocations', 'allocationMetadata'), valueLike, async (key, where, value) => {
        const body = received(escrowRequest()) as Record<string, any>;
        const target = where === 'top' ? body : where === 'allocationMetadata' ? (body.allocations[0].metadata ??= {}) : body[where][0];
        fc.pre(!Object.hasOwn(target, key) && !knownNames(where === 'top' ? CreateEscrowDto : where === 'items' ? EscrowItemDto : where === 'allocations' ? AllocationDto : AllocationMetadataDto).includes(key));
        target[key] = value;
        expect(plans.accept(CreateEscrowDto, body)).toBeUndefined();
        await expect(pipe.transform(received(body), { type: 'body', metatype: CreateEscrowDto })).rejects.toBeDefined();
      }),
      { numRuns: 300 },
    );
  });

  it('drops api_secret (listed by the spec) unread, and refuses any other unknown field with UNKNOWN_FIELD naming it', async () => {
    const requestPipe = new RequestValidationPipe();
    const accepted = (await requestPipe.transform(received(escrowRequest({ api_secret: 'sk_live_x' })), { type: 'body', metatype: CreateEscrowDto })) as Record<string, unknown>;
    expect(accepted).toBeInstanceOf(CreateEscrowDto);
    expect('api_secret' in accepted).toBe(false);
    const refused = (body: unknown) => requestPipe.transform(received(body), { type: 'body', metatype: CreateEscrowDto });
    await expect(refused(escrowRequest({ apiSecret: 'x' }))).rejects.toMatchObject({ code: 'UNKNOWN_FIELD', message: 'Unknown field: apiSecret' });
    await expect(refused(escrowRequest({ callbackUrl: 'https://x.example' }))).rejects.toMatchObject({ message: 'Unknown field: callbackUrl (did you mean callbackURL?)' });
    const nested = received(escrowRequest()) as Record<string, any>;
    nested.allocations[0].merchant_id = 'x';
    nested.items[0].qty = 2;
    await expect(refused(nested)).rejects.toMatchObject({ message: 'Unknown fields: items[0].qty, allocations[0].merchant_id (did you mean merchantId?)' });
  });

  it("runs a rule it has no test for through its validator, with class-validator's arguments", async () => {
    /** A rule reading the object and the property's whole value (an array, for a rule on each item): under its length, and not the object's `max`. */
    function BelowCountAndMax(): PropertyDecorator {
      return (target, propertyName) =>
        registerDecorator({
          name: 'belowCountAndMax',
          target: target.constructor,
          propertyName: propertyName as string,
          options: { each: true },
          validator: {
            validate: (value: unknown, args: ValidationArguments) =>
              typeof value === 'number' && Array.isArray(args.value) && value < args.value.length && value !== (args.object as { max?: number }).max,
          },
        });
    }
    class Counted {
      @BelowCountAndMax()
      numbers!: number[];

      @IsOptional()
      @IsInt()
      max?: number;
    }
    expect(await expectAgreement(Counted, { numbers: [0, 1, 2] })).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -1, max: 5 }), { maxLength: 5 }), fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }), async (numbers, max) => {
        await expectAgreement(Counted, max === undefined ? { numbers } : { numbers, max });
      }),
      { numRuns: 200 },
    );
  });

  it('leaves to the full pipe a class using what the plan does not reproduce', async () => {
    class Trimmed {
      @IsString()
      @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
      name!: string;
    }
    class Grouped {
      @IsOptional({ groups: ['admin'] })
      @IsString()
      note?: string;
    }
    expect(plans.accept(Trimmed, { name: ' x ' })).toBeUndefined();
    expect(plans.accept(Grouped, { note: 'x' })).toBeUndefined();
  });

  it('does not answer for a body it finds invalid or odd, leaving the message to the full pipe', async () => {
    expect(plans.accept(CreateEscrowDto, escrowRequest({ amount: 10.555 }))).toBeUndefined();
    expect(plans.accept(CreateEscrowDto, escrowRequest({ items: [] }))).toBeUndefined();
    expect(plans.accept(CreateEscrowDto, escrowRequest({ allocations: ['x'] }))).toBeUndefined();
    expect(plans.accept(CreateEscrowDto, JSON.parse(`{"orderId":"o","constructor":{"prototype":{}}}`))).toBeUndefined();
    expect(plans.accept(CreateEscrowDto, Object.assign(Object.create(null), escrowRequest()))).toBeUndefined();
  });
});
