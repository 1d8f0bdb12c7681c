/**
 * A merchant's callback receiver as a minimal NestJS (Fastify) app: POST /callbacks.
 * PORT (4000), WEBHOOK_SECRET (required). Build and run: see examples/README.md.
 */
import 'reflect-metadata';
import { Controller, HttpCode, HttpException, Module, Post, type RawBodyRequest, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
// Relative rather than @app/callback-receiver: tsc does not rewrite path aliases, and this runs as plain node.
import { CallbackVerificationError, verifyCallback } from '../libs/callback-receiver/src';

const port = Number(process.env.PORT ?? 4000);
const secret = process.env.WEBHOOK_SECRET ?? '';

@Controller('callbacks')
class CallbacksController {
  /** Delivery is at-least-once; a real receiver keeps the handled eventIds (webhook endpoints) or deliveryIds (a callbackURL) in its database. */
  private readonly handled = new Set<string>();

  @Post()
  @HttpCode(200)
  receive(@Req() req: RawBodyRequest<FastifyRequest>) {
    // Not req.body: that is the JSON already parsed, and re-serialising it only reproduces the signed
    // bytes while both sides happen to format JSON identically (key order, spacing, number and
    // unicode escapes). req.rawBody holds the bytes as received, which is what was signed; it exists
    // only because the app is created with rawBody: true (without it, it is undefined and
    // verifyCallback throws a TypeError).
    let payload;
    try {
      payload = verifyCallback(secret, req.headers, req.rawBody!);
    } catch (error) {
      if (error instanceof CallbackVerificationError) throw new HttpException({ message: error.message, code: error.code }, error.status);
      throw error;
    }
    // One event reaches each webhook endpoint under its own deliveryId but the same eventId: dedupe on that where there is one.
    const key = payload.eventId ?? payload.deliveryId;
    if (key && this.handled.has(key)) return { message: 'Already received' };
    // Fulfil the order here. Answer 2xx only once the work is safely done: any other answer is retried.
    console.log(`${payload.billRefNo}: ${payload.status} (${key ?? 'no deliveryId'})`);
    if (key) this.handled.add(key);
    return { message: 'Received' };
  }
}

@Module({ controllers: [CallbacksController] })
class ReceiverModule {}

async function main(): Promise<void> {
  if (!secret) throw new Error('WEBHOOK_SECRET is not set: copy the webhook secret (whsec_...) from the merchant dashboard.');
  const app = await NestFactory.create<NestFastifyApplication>(ReceiverModule, new FastifyAdapter(), { rawBody: true });
  await app.listen(port, '0.0.0.0');
  console.log(`callback receiver listening on http://localhost:${port}/callbacks`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
