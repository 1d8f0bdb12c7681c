import { AuditLogReader } from '@app/audit';
import { SqlLogReader } from '@app/event-store';
import { ClientGone } from '@app/http';
import { type RunningApp, startApp, TEST_ADMIN_KEY } from '../support/app';
import { waitFor } from '../support/wait';

/**
 * GET /v1/audit/integrity reads the whole log. A client that gives up (or a timeout that cuts its
 * connection) must take the check down with it: the check is held at its start until the server has
 * seen the client go, then let run, and it must stop before reading a page of the log.
 */
describe('an integrity check whose client went away', () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp();
  });

  afterAll(async () => {
    await running?.close();
  });

  it('stops without reading the log once the connection is closed', async () => {
    // On the prototypes: several modules hold a reader of their own.
    const walk = jest.spyOn(SqlLogReader.prototype, 'walk');
    const verify = AuditLogReader.prototype.verifyIntegrity;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started: { signal?: AbortSignal; check: Promise<unknown> } | undefined;
    jest.spyOn(AuditLogReader.prototype, 'verifyIntegrity').mockImplementation(function (this: AuditLogReader, onProgress, signal) {
      const check = held.then(() => verify.call(this, onProgress, signal));
      started = { signal, check };
      return check;
    });

    const client = new AbortController();
    const request = fetch(`${running.baseUrl}/v1/audit/integrity`, { headers: { 'x-admin-key': TEST_ADMIN_KEY }, signal: client.signal }).catch((error: unknown) => error);
    const { signal, check } = await waitFor(async () => started, 'the check to start');
    client.abort();
    expect(await request).toMatchObject({ name: 'AbortError' });
    await waitFor(async () => signal?.aborted, 'the server to see the client go');
    release();
    await expect(check).rejects.toBeInstanceOf(ClientGone);
    expect(walk).not.toHaveBeenCalled();
  });
});
