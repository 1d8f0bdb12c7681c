import type { AppConfig } from '@app/config';
import type { CredentialStore } from '@app/credentials';
import type { LogReader } from '@app/event-store';
import type { Clock, CommandRunner } from '@app/infrastructure';
import type { AccountDirectory } from '../accounts/account-directory';
import { TenantModes } from './tenant-modes';

/** PostgreSQL's answer to a backend terminated under a query (SQLSTATE 57P01), as node-postgres reports it. */
const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

function modesReading(read: CommandRunner['read']): TenantModes {
  const runner = { read } as unknown as CommandRunner;
  const credentials = { assignLegacyMode: async () => undefined } as unknown as CredentialStore;
  return new TenantModes(runner, credentials, {} as AccountDirectory, {} as LogReader, {} as AppConfig, { now: () => new Date() } as Clock);
}

describe('the start deciding the mode of data written before modes', () => {
  it('waits out a connection PostgreSQL terminated, reading the decision again, instead of failing the start', async () => {
    const read = jest.fn().mockRejectedValueOnce(terminated).mockResolvedValue({ state: { mode: 'test' } });
    await expect(modesReading(read as unknown as CommandRunner['read']).decideAtStart()).resolves.toBe('test');
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('fails the start on any other error, asking once', async () => {
    const read = jest.fn().mockRejectedValue(new Error('relation "events" does not exist'));
    await expect(modesReading(read as unknown as CommandRunner['read']).decideAtStart()).rejects.toThrow('relation');
    expect(read).toHaveBeenCalledTimes(1);
  });
});
