/**
 * What a merchant pastes into a node:http server to verify our callbacks, with the receiver library
 * (libs/callback-receiver, packed from the repository until it is published); its README has the NestJS variant.
 */
export const VERIFICATION_SNIPPET = `// npm pack <the service's repository>/libs/callback-receiver && npm install ./escrow-ledger-callback-receiver-0.1.0.tgz
import { createServer } from 'node:http';
import { verifyCallback, CallbackVerificationError } from '@escrow-ledger/callback-receiver';

const secret = process.env.WEBHOOK_SECRET; // whsec_... from this page

createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    // Verify the exact bytes received, before parsing them.
    const payload = verifyCallback(secret, req.headers, Buffer.concat(chunks));
    // Delivery is at least once: skip payload.deliveryId if you have handled it already.
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"Received"}');
  } catch (error) {
    if (!(error instanceof CallbackVerificationError)) throw error;
    res.writeHead(error.status, { 'content-type': 'application/json' }).end(JSON.stringify({ message: error.message }));
  }
}).listen(4000);
`;
