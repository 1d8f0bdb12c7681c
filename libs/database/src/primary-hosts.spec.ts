import { parseHostList } from './primary-hosts';

describe("libpq's multi-host connection string", () => {
  it('reads each host with its port, in order, and the session attributes', () => {
    const list = parseHostList('postgresql://app:secret@db-1:5432,db-2:5433,[::1]:5434/ledger?target_session_attrs=read-write&sslmode=disable')!;
    expect(list.hosts).toEqual([
      { host: 'db-1', port: 5432 },
      { host: 'db-2', port: 5433 },
      { host: '::1', port: 5434 },
    ]);
    expect(list.targetSessionAttrs).toBe('read-write');
    // Each host's own string keeps the user, the database and the other parameters; pg reads it as one host.
    expect(list.urlFor(list.hosts[1])).toBe('postgresql://app:secret@db-2:5433/ledger?sslmode=disable');
    expect(list.urlFor(list.hosts[2])).toBe('postgresql://app:secret@[::1]:5434/ledger?sslmode=disable');
  });

  it('gives hosts without a port the port parameter, or 5432', () => {
    expect(parseHostList('postgres://h1,h2:6000/db?port=6432')!.hosts).toEqual([
      { host: 'h1', port: 6432 },
      { host: 'h2', port: 6000 },
    ]);
    expect(parseHostList('postgres://h1/db')!.hosts).toEqual([{ host: 'h1', port: 5432 }]);
  });

  it('takes any session without target_session_attrs, and refuses attributes it does not implement', () => {
    expect(parseHostList('postgres://h1,h2/db')!.targetSessionAttrs).toBe('any');
    expect(parseHostList('postgres://h1,h2/db?target_session_attrs=primary')!.targetSessionAttrs).toBe('primary');
    expect(() => parseHostList('postgres://h1,h2/db?target_session_attrs=prefer-standby')).toThrow(/not supported/);
  });

  it('leaves keyword/value strings to pg', () => {
    expect(parseHostList('host=localhost dbname=test')).toBeUndefined();
  });
});
