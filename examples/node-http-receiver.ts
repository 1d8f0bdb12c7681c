/**
 * A merchant's callback receiver with nothing but node:http: PORT (4000), WEBHOOK_SECRET (required).
 * Build and run: see examples/README.md.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
// Relative rather than @app/callback-receiver: tsc does not rewrite path aliases, and this runs as plain node.
import { CallbackVerificationError, verifyCallback } from '../libs/callback-receiver/src';

const port = Number(process.env.PORT ?? 4000);
const secret = process.env.WEBHOOK_SECRET ?? '';
if (!secret) {
  process.stderr.write('WEBHOOK_SECRET is not set: copy the webhook secret (whsec_...) from the merchant dashboard.\n');
  process.exit(1);
}

/** Bigger than any callback we send; stops a stranger from filling memory before the signature is checked. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * Delivery is at-least-once: a callback whose 2xx answer was lost is sent again with the same
 * deliveryId (and, to a webhook endpoint, the same eventId). The key is the eventId where there is one
 * (a webhook endpoint's delivery: the same event at every endpoint and in the events API), else the
 * deliveryId (a callbackURL's). In memory for the example; a real receiver keeps these where its orders
 * are, and marks one handled in the same transaction as the work it triggers.
 */
const handled = new Set<string>();

/** The raw bytes, never a parsed object: the signature covers exactly what was sent. */
function readRawBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep reading but stop keeping, so the 413 can still be sent on this connection.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : undefined));
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const server = createServer(async (req, res) => {
  if (req.method !== 'POST') return answer(res, 405, { message: 'Callbacks are POSTed' });
  try {
    const rawBody = await readRawBody(req);
    if (!rawBody) return answer(res, 413, { message: 'Body too large' });
    const payload = verifyCallback(secret, req.headers, rawBody);

    const key = payload.eventId ?? payload.deliveryId;
    if (key && handled.has(key)) {
      console.log(`duplicate ${key} for ${payload.billRefNo}: already handled`);
      return answer(res, 200, { message: 'Already received' });
    }
    // Fulfil the order here. Answer 2xx only once the work is safely done: any other answer is retried.
    console.log(`${payload.billRefNo}: ${payload.status}${payload.amount !== undefined ? ` ${payload.amount} ETB` : ''} (${key ?? 'no deliveryId'})`);
    if (key) handled.add(key);
    return answer(res, 200, { message: 'Received' });
  } catch (error) {
    if (error instanceof CallbackVerificationError) {
      console.warn(`rejected callback: ${error.code}: ${error.message}`);
      return answer(res, error.status, { message: error.message, code: error.code });
    }
    console.error(error);
    return answer(res, 500, { message: 'Internal error' });
  }
});

server.listen(port, () => console.log(`callback receiver listening on http://localhost:${port}`));
