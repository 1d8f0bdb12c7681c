import { createServer, type Server } from 'node:http';
import { migrate } from '@app/database';
import { createTestSchema, type TestSchema } from '../../../../test/support/postgres';
import { verifyNotification, PROVIDER_SIGNATURE_HEADER, PROVIDER_TIMESTAMP_HEADER } from '../notification-signature';
import type { ProviderNotification } from '../payment-provider.port';
import { type ProviderHarness, providerContract } from '../testing/provider.contract';
import { SANDBOX_MIGRATIONS } from './sandbox.migrations';
import { SANDBOX_OTP, SANDBOX_PHONES } from './sandbox-phones';
import { SandboxProvider } from './sandbox-provider';

const SECRET = Buffer.alloc(32, 7);

/** Our notification endpoint, as the API serves it: verifies the signature, keeps what it got, answers 200. */
async function endpoint(received: ProviderNotification[]): Promise<{ url: string; setDown(down: boolean): Promise<void>; close(): Promise<void> }> {
  let port = 0;
  let server: Server | undefined;
  const listen = async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const header = (name: string) => request.headers[name] as string | undefined;
        if (!verifyNotification(SECRET, header(PROVIDER_TIMESTAMP_HEADER), header(PROVIDER_SIGNATURE_HEADER), body)) {
          response.statusCode = 401;
          return response.end();
        }
        received.push(JSON.parse(body) as ProviderNotification);
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server!.address() as { port: number }).port;
  };
  const close = async () => {
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
  };
  await listen();
  return { url: `http://127.0.0.1:${port}`, setDown: (down) => (down ? close() : listen()), close };
}

describe('SandboxProvider', () => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema('sandbox');
    await migrate(schema.client, schema.schema, 'sandbox-provider', SANDBOX_MIGRATIONS);
  });
  afterAll(() => schema.drop());

  providerContract(async (): Promise<ProviderHarness> => {
    const received: ProviderNotification[] = [];
    const receiver = await endpoint(received);
    const instances: SandboxProvider[] = [];
    const make = () => {
      const provider = new SandboxProvider({ db: schema.client, notificationSecret: SECRET, notifyBaseUrl: () => receiver.url, delayMs: 50 });
      instances.push(provider);
      return provider;
    };
    return {
      provider: make(),
      phones: {
        approves: SANDBOX_PHONES.succeeds,
        declines: SANDBOX_PHONES.insufficientFunds,
        neverAnswers: SANDBOX_PHONES.neverAnswers,
        refundRefused: SANDBOX_PHONES.refundsRejected,
      },
      methods: { push: 'sandbox-ussd', otp: 'sandbox-otp' },
      otp: SANDBOX_OTP,
      received,
      setReceiverDown: receiver.setDown,
      reopen: async () => make(),
      close: async () => {
        for (const instance of instances) instance.close();
        await receiver.close();
      },
    };
  });
});
