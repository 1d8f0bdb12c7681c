'use strict';
/**
 * A merchant's callback endpoint: verifies every signature (HMAC-SHA256 over `${X-Timestamp}.${body}`,
 * constant-time) and counts. GET /stats: {verified, rejected, first, last} (epoch ms). Env: PORT, SECRET.
 */
const { createHmac, timingSafeEqual } = require('node:crypto');
const { createServer } = require('node:http');

const secret = process.env.SECRET;
const stats = { verified: 0, rejected: 0, first: 0, last: 0 };

function verified(headers, body) {
  const timestamp = headers['x-timestamp'];
  const signature = headers['x-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const server = createServer((request, response) => {
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    if (!verified(request.headers, Buffer.concat(chunks))) {
      stats.rejected += 1;
      response.writeHead(401).end();
      return;
    }
    const now = Date.now();
    if (stats.verified === 0) stats.first = now;
    stats.verified += 1;
    stats.last = now;
    response.writeHead(204).end();
  });
});

server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('receiver ready\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
