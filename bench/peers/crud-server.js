'use strict';
/**
 * The CRUD peer: what a NestJS team without event sourcing would build. A controller, a service and
 * `@nestjs/typeorm`: create writes the escrow and its allocations in one transaction; a release locks
 * the escrow row, updates the allocation and the escrow's status in one transaction. No history, no
 * ledger. Bodies are class-validator DTOs through Nest's ValidationPipe, stating the rules ours
 * applies (docs/concepts/money-and-validation.md). On the same HTTP layer as ours (Nest on Fastify).
 *
 * Plain JS, as the rest of the bench: entities are TypeORM EntitySchemas, and Nest's and
 * class-validator's decorators are applied with Reflect.decorate, which is what TypeScript compiles
 * `@Decorator()` to (with the `design:paramtypes` metadata it would emit), so the framework sees
 * exactly what it sees in a TypeScript app, with no build step of the bench's own.
 * No payments: a created escrow's allocations can be released at once. Env: PORT, DATABASE_URL, SCHEMA.
 */
require('reflect-metadata');
const { randomUUID } = require('node:crypto');
const { BadRequestException, Body, ConflictException, Controller, HttpCode, Injectable, Module, NotFoundException, Param, Post, ValidationPipe } =
  require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { TypeOrmModule } = require('@nestjs/typeorm');
const { Transform, Type } = require('class-transformer');
const v = require('class-validator');
const { DataSource, EntitySchema, QueryFailedError } = require('typeorm');
const { LIMITS } = require('./escrow-rules');

const MERCHANT = 'mer_bench';
const MAX_ETB = 1_000_000_000;
const ETB = { maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false };
const URL_RULES = { require_protocol: true, protocols: ['http', 'https'], require_tld: false };
const DAY_MS = 24 * 60 * 60 * 1000;

/** `@decorators` on a class, or on one of its properties or methods, as TypeScript emits them. */
function decorate(target, decorators, member) {
  if (member === undefined) return Reflect.decorate(decorators, target);
  const descriptor = Object.getOwnPropertyDescriptor(target.prototype, member);
  const result = Reflect.decorate(decorators, target.prototype, member, descriptor);
  if (descriptor) Object.defineProperty(target.prototype, member, result ?? descriptor);
}

const param = (index, decorator) => (target, key) => decorator(target, key, index);
const text = (max = LIMITS.string) => [v.IsString(), v.IsNotEmpty(), v.MaxLength(max)];
const optionalText = () => [v.IsOptional(), v.IsString(), v.MaxLength(LIMITS.string)];
const santim = (etb) => Math.round(etb * 100);

class ItemDto {}
decorate(ItemDto, text(), 'productId');
decorate(ItemDto, text(), 'item_name');
decorate(ItemDto, [v.IsInt(), v.Min(1), v.Max(LIMITS.quantity)], 'quantity');
decorate(ItemDto, [v.IsNumber(ETB), v.Min(0), v.Max(MAX_ETB)], 'unit_price');
decorate(ItemDto, [v.IsOptional(), v.IsUrl(URL_RULES), v.MaxLength(LIMITS.string)], 'image_url');
decorate(ItemDto, optionalText(), 'stock_unit');

class AllocationMetadataDto {}
decorate(AllocationMetadataDto, optionalText(), 'merchantName');
decorate(AllocationMetadataDto, optionalText(), 'purpose');

class AllocationDto {}
decorate(AllocationDto, text(), 'merchantId');
decorate(AllocationDto, [v.IsNumber(ETB), v.Min(0.01), v.Max(MAX_ETB)], 'amount');
decorate(AllocationDto, [v.IsOptional(), v.IsNumber(ETB), v.Min(0), v.Max(MAX_ETB)], 'fee');
decorate(AllocationDto, [v.IsOptional(), v.IsObject(), v.ValidateNested(), Type(() => AllocationMetadataDto)], 'metadata');

/** Bounds free-form metadata by its serialised size. */
const MaxJsonBytes = (limit) =>
  v.ValidateBy({
    name: 'maxJsonBytes',
    validator: { validate: (value) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') <= limit, defaultMessage: () => `metadata must be at most ${limit} bytes as JSON` },
  });

class CreateEscrowDto {}
decorate(CreateEscrowDto, text(), 'orderId');
decorate(CreateEscrowDto, [v.IsNumber(ETB), v.Min(0.01), v.Max(MAX_ETB)], 'amount');
decorate(CreateEscrowDto, [v.IsString(), v.IsIn(['ETB'], { message: 'the only supported currency is ETB' })], 'currency');
decorate(CreateEscrowDto, text(), 'customerName');
decorate(
  CreateEscrowDto,
  [
    Transform(({ value }) => (typeof value === 'string' ? value.replace(/[\s\-()]/g, '').replace(/^(?:\+?251|0)([79]\d{8})$/, '+251$1') : value)),
    v.Matches(/^\+251[79]\d{8}$/, { message: 'customerPhoneNumber must be an Ethiopian mobile number such as 0911234567 or +251911234567' }),
  ],
  'customerPhoneNumber',
);
decorate(CreateEscrowDto, [v.IsOptional(), v.IsEmail(), v.MaxLength(LIMITS.string)], 'customerEmail');
decorate(CreateEscrowDto, optionalText(), 'description');
decorate(CreateEscrowDto, [v.IsOptional(), v.IsUrl(URL_RULES), v.MaxLength(LIMITS.string)], 'callbackURL');
decorate(CreateEscrowDto, [v.IsOptional(), v.IsUrl(URL_RULES), v.MaxLength(LIMITS.string)], 'redirectUrl');
decorate(CreateEscrowDto, [v.IsOptional(), v.IsISO8601({ strict: true })], 'expiredAt');
decorate(CreateEscrowDto, [v.IsOptional(), v.IsObject(), MaxJsonBytes(LIMITS.metadataBytes)], 'metadata');
decorate(CreateEscrowDto, [v.IsArray(), v.ArrayMinSize(1), v.ArrayMaxSize(LIMITS.items), v.ValidateNested({ each: true }), Type(() => ItemDto)], 'items');
decorate(
  CreateEscrowDto,
  [
    v.IsArray(),
    v.ArrayMinSize(1),
    v.ArrayMaxSize(LIMITS.allocations),
    v.ArrayUnique((a) => a.merchantId, { message: 'each merchantId may have one allocation' }),
    v.ValidateNested({ each: true }),
    Type(() => AllocationDto),
  ],
  'allocations',
);
decorate(CreateEscrowDto, [v.IsOptional(), v.IsISO8601({ strict: true })], 'autoReleaseAt');
decorate(CreateEscrowDto, [v.IsOptional(), v.IsInt(), v.Min(1), v.Max(90)], 'releaseAfterDays');

class ReleaseDto {}
decorate(ReleaseDto, text(), 'merchantId');
decorate(ReleaseDto, [v.IsOptional(), v.IsNumber(ETB), v.Min(0.01), v.Max(MAX_ETB)], 'amount');

const Escrow = new EntitySchema({
  name: 'Escrow',
  tableName: 'escrows',
  columns: {
    id: { type: 'text', primary: true },
    merchantId: { type: 'text', name: 'merchant_id' },
    orderId: { type: 'text', name: 'order_id' },
    status: { type: 'text' },
    amount: { type: 'bigint', transformer: { to: (value) => value, from: Number } },
    currency: { type: 'text' },
    customerName: { type: 'text', name: 'customer_name' },
    customerPhone: { type: 'text', name: 'customer_phone' },
    customerEmail: { type: 'text', name: 'customer_email', nullable: true },
    description: { type: 'text', nullable: true },
    items: { type: 'jsonb' },
    callbackUrl: { type: 'text', name: 'callback_url', nullable: true },
    redirectUrl: { type: 'text', name: 'redirect_url', nullable: true },
    metadata: { type: 'jsonb', nullable: true },
    expiresAt: { type: 'timestamptz', name: 'expires_at' },
    autoReleaseAt: { type: 'timestamptz', name: 'auto_release_at', nullable: true },
    releaseAfterDays: { type: 'int', name: 'release_after_days', nullable: true },
    createdAt: { type: 'timestamptz', name: 'created_at', createDate: true },
    updatedAt: { type: 'timestamptz', name: 'updated_at', updateDate: true },
  },
  uniques: [{ name: 'escrows_merchant_order', columns: ['merchantId', 'orderId'] }],
  relations: { allocations: { type: 'one-to-many', target: 'Allocation', inverseSide: 'escrow' } },
});

const Allocation = new EntitySchema({
  name: 'Allocation',
  tableName: 'allocations',
  columns: {
    escrowId: { type: 'text', name: 'escrow_id', primary: true },
    merchantId: { type: 'text', name: 'merchant_id', primary: true },
    amount: { type: 'bigint', transformer: { to: (value) => value, from: Number } },
    fee: { type: 'bigint', default: 0, transformer: { to: (value) => value, from: Number } },
    released: { type: 'bigint', default: 0, transformer: { to: (value) => value, from: Number } },
    status: { type: 'text' },
    metadata: { type: 'jsonb', nullable: true },
  },
  relations: { escrow: { type: 'many-to-one', target: 'Escrow', joinColumn: { name: 'escrow_id' }, onDelete: 'CASCADE' } },
});

class EscrowsService {
  constructor(dataSource) {
    this.dataSource = dataSource;
  }

  /** What the DTOs cannot say on their own: the allocations add up to the amount, and the dates. */
  async create(dto) {
    const amount = santim(dto.amount);
    const total = dto.allocations.reduce((sum, a) => sum + santim(a.amount), 0);
    if (total !== amount) throw new BadRequestException(`The allocations add up to ${total} santim, not the escrow's ${amount}`);
    if (dto.allocations.some((a) => a.fee !== undefined && a.fee > a.amount)) throw new BadRequestException('An allocation fee exceeds its amount');
    const now = Date.now();
    const expiresAt = dto.expiredAt === undefined ? now + 30 * 60 * 1000 : Date.parse(dto.expiredAt);
    if (expiresAt <= now || expiresAt - now > 30 * DAY_MS) throw new BadRequestException('expiredAt must be in the future, at most 30 days ahead');
    if (dto.autoReleaseAt !== undefined) {
      const at = Date.parse(dto.autoReleaseAt);
      if (dto.releaseAfterDays !== undefined || at <= expiresAt || at > now + 365 * DAY_MS) throw new BadRequestException('autoReleaseAt must be after expiry, within 365 days, without releaseAfterDays');
    }
    const id = `esc_${randomUUID()}`;
    try {
      await this.dataSource.transaction(async (manager) => {
        await manager.insert(Escrow, {
          id,
          merchantId: MERCHANT,
          orderId: dto.orderId,
          status: 'PENDING',
          amount,
          currency: dto.currency,
          customerName: dto.customerName,
          customerPhone: dto.customerPhoneNumber,
          customerEmail: dto.customerEmail ?? null,
          description: dto.description ?? null,
          items: dto.items.map((item) => ({ ...item, unit_price: santim(item.unit_price) })),
          callbackUrl: dto.callbackURL ?? null,
          redirectUrl: dto.redirectUrl ?? null,
          metadata: dto.metadata ?? null,
          expiresAt: new Date(expiresAt),
          autoReleaseAt: dto.autoReleaseAt ? new Date(dto.autoReleaseAt) : null,
          releaseAfterDays: dto.releaseAfterDays ?? null,
        });
        await manager.insert(
          Allocation,
          dto.allocations.map((a) => ({ escrowId: id, merchantId: a.merchantId, amount: santim(a.amount), fee: santim(a.fee ?? 0), status: 'PENDING', metadata: a.metadata ?? null })),
        );
      });
    } catch (error) {
      if (error instanceof QueryFailedError && error.driverError?.code === '23505') throw new ConflictException(`orderId ${dto.orderId} was used already`);
      throw error;
    }
    return { escrowId: id, orderId: dto.orderId, status: 'PENDING' };
  }

  async release(escrowId, dto) {
    return this.dataSource.transaction(async (manager) => {
      const escrow = await manager.findOne(Escrow, { where: { id: escrowId, merchantId: MERCHANT }, lock: { mode: 'pessimistic_write' } });
      if (!escrow) throw new NotFoundException(`No escrow ${escrowId}`);
      const allocations = await manager.find(Allocation, { where: { escrowId } });
      const allocation = allocations.find((a) => a.merchantId === dto.merchantId);
      if (!allocation) throw new ConflictException('No allocation for that merchantId');
      const held = allocation.amount - allocation.released;
      if (held === 0) throw new ConflictException(`${dto.merchantId} was released already`);
      const amount = dto.amount === undefined ? held : santim(dto.amount);
      if (amount > held) throw new ConflictException(`${amount} santim is more than the ${held} held`);
      allocation.released += amount;
      allocation.status = allocation.released === allocation.amount ? 'RELEASED' : 'PARTIALLY_RELEASED';
      await manager.update(Allocation, { escrowId, merchantId: allocation.merchantId }, { released: allocation.released, status: allocation.status });
      escrow.status = allocations.every((a) => a.released === a.amount) ? 'RELEASED' : 'PARTIALLY_RELEASED';
      await manager.update(Escrow, { id: escrowId }, { status: escrow.status });
      return { escrowId, status: escrow.status, allocations: allocations.map(({ merchantId, amount: total, released, status }) => ({ merchantId, amount: total, released, status })) };
    });
  }
}
decorate(EscrowsService, [Injectable(), Reflect.metadata('design:paramtypes', [DataSource])]);

class EscrowsController {
  constructor(escrows) {
    this.escrows = escrows;
  }

  async create(body) {
    return { status: 'success', data: await this.escrows.create(body) };
  }

  async release(escrowId, body) {
    return { status: 'success', data: await this.escrows.release(escrowId, body) };
  }
}
decorate(EscrowsController, [Post(), HttpCode(201), param(0, Body()), Reflect.metadata('design:paramtypes', [CreateEscrowDto])], 'create');
decorate(
  EscrowsController,
  [Post(':escrowId/release'), HttpCode(200), param(0, Param('escrowId')), param(1, Body()), Reflect.metadata('design:paramtypes', [String, ReleaseDto])],
  'release',
);
decorate(EscrowsController, [Controller('escrows'), Reflect.metadata('design:paramtypes', [EscrowsService])]);

class AppModule {}
decorate(AppModule, [
  Module({
    imports: [
      TypeOrmModule.forRoot({
        type: 'postgres',
        url: process.env.DATABASE_URL,
        schema: process.env.SCHEMA,
        entities: [Escrow, Allocation],
        synchronize: true,
        extra: { max: 20 },
      }),
    ],
    controllers: [EscrowsController],
    providers: [EscrowsService],
  }),
]);

async function main() {
  const app = await NestFactory.create(AppModule, new FastifyAdapter({ bodyLimit: 256 * 1024 }), { logger: ['error', 'warn'] });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true }));
  await app.listen(Number(process.env.PORT), '127.0.0.1');
  process.stdout.write('peer ready\n');
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
