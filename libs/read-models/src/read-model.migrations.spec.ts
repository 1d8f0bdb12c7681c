import { createHash } from 'node:crypto';
import { READ_MODEL_MIGRATIONS } from './read-model.migrations';

/**
 * The read models' migrations as releases have run them, in their order: each id with the SHA-256 of its SQL,
 * taken from the one list they were kept in before each feature's folder had its own. The runner skips an id a
 * database has recorded and runs the rest in list order (libs/database/src/migrations.ts), so a released
 * migration whose SQL, id or place changed would leave databases in the field and new ones apart.
 */
const RELEASED: ReadonlyArray<readonly [id: string, sqlSha256: string]> = [
  ['001-core-views', '4d419337e342cd61c39b78006887e4fcc5728cdfc02f9bfa2c8bd207c9e4fd54'],
  ['002-callback-deliveries', 'd47676138625a4816ce1ad4b15b0995f75726d49386d126ac96d33bb0cb4ce07'],
  ['003-ledger', 'e085a0dd37059a82e079a2d090f17bc10e5df4828c46577de78dc3d27f1483c0'],
  ['004-event-log', 'fef29293b4ebcfa14ba079539a556e67b62399cb1408a06aaf879f349f646140'],
  ['005-callback-deliveries-by-merchant', '244c8aa2fb253e91647812abc6e1ebd65bd1514d817112f8b012118cd994eda9'],
  ['006-provider-operations', 'a30b41d37490f89349a8d801072e3cbc2ae7b77b8ccd6810aa94180cd733e006'],
  ['007-views-in-their-own-shape', '3c6bdab4395175e6ef9a0fc2d6c08b73c0a50de11d45a5b440e98968ab46bc07'],
  ['008-automatic-release', '4829f86018c5d521723dff0d2cf8f3cda50d9e51fef48216b4027e3b2b4aa315'],
  ['009-payouts', '748f5e4cdb55e49c0d687980f72ec974beba9bc1f6b0df019274dd8ad56cbad9'],
  ['010-payout-schedules', 'b42900dd4a872be36a095eb3573e1c0f82bb71683dcfdaa6497923ed897d122e'],
  ['011-folded-view-revisions', 'a78f00839e3179a12558068ec1acf5ae0c5b705dc24860c79a211f7e26e7562b'],
  ['012-ledger-running-balances', 'ac432da486e3d192e4840f08fd8adb8df676efee39b1e4e72ac21d595f360c8e'],
  ['013-payout-schedule-since', 'f26ec746ba72963516964ceae7a0aeedd22b1ec3917841fbdc619dc1a485975f'],
  ['014-payout-movements', 'e347b38bb8cff9742f887a71884038cb3852d7aa1fb0f4991c236b6729465c62'],
  ['015-payout-destination-versions', '88b2643289b46c87eb305c2069ef347d61e5c3a7eba6beeb8ab44aa431b47c26'],
  ['016-payout-account-settings', '1a2e9c1ca521ae6ed284a586c56151fc3832dd7b4d534c52d8031a9702bdbfc6'],
  ['017-webhook-endpoints', '95bad7ab2c3da43589bd25b9c88f0c009b298c7a65f907e47cc4f0a9cf8a4cde'],
  ['019-merchant-events', 'fefbac175033427da92f6b1d79085f2ccda49d90b6f8fc09be9a3b0416ce8821'],
  ['021-accounts', '42af2ffe1aa4fc98c63efe161df9848578457309391481af6b03c7c510e7f43a'],
  ['024-lists-and-balances', '235caf2802e9b134f92ff78c698117f3ff51488c943dcb1a774a09ee9a8a287f'],
  ['026-transfers', 'ad4944b2124b72439f65e6cf4c0671d95288764edb56bff11c5f24e8c4c7b51d'],
  ['032-callback-delivery-sources', '95e3160be510ccf6fd18c4fa14382d43805a8507514443f46ff5b49e1f09bb1b'],
  ['036-payout-schedule-fees-account', 'f4d0e1d708df13528ac1df8e7dcce8704b7ac35b33175e07d012d0140bbb6365'],
  ['038-payout-delays', '8ce05f1c2b59e4338feb7e74e852808bb65a2a218a0e11a38aef40e1f391b179'],
  ['039-payouts-pages', '9474ac7f8779289a60f3525c82dabe46a7e7851a5c6e0fa5051e28e6b53d9559'],
  ['040-platform-links', '715c989f1b141b8539666821615c09223d1847b26b957d4f829542cd33d5c528'],
  ['041-transfer-belongs-to', '0fabe106d790babc4908769bab344581ba192c53dabcabfa3a8de4092ab9a13f'],
  ['042-destination-holds', '7e8bc4ce6d1dcf426f4b53ce78a54bd3817b9bcf3e85ab85be4a13de8d2a0908'],
  ['043-test-clock-objects', '320396e6ac4f3310f8f1e18a1ca2b5933ae36eb6f75d4684bfccbaebdaca0435'],
  ['044-ledger-modes', 'b25deb8ae5b3c17cf90c01f73314e7c880180a5471da207f4d86f0dda6ffcfc7'],
  ['045-test-clocks-view', '07604d5142165a394c385a4d98e3b9cb5549d64c315d7b9fc496f591f7e6f0ba'],
  ['046-payout-reserves', '77325aede132902e56a2309cc2d34e51bc605a23bb3f4a0e24360b0fc01cac8f'],
  ['047-accounts-requirements-due', 'd83b092740c48ca823dda250219f503e4d3b4606e05e0b75cf22c218426736cc'],
  ['048-payout-schedules-without-account-settings', 'a4a970e54c48efb7816e4af3cc51cbcbfc3d3c99aa696222b0518bdc9ae19b5d'],
  ['051-ledger-balances-debtors', 'a1e7f886394a2c5669031bd9a6598ade5b8277351055a8a0023315b75a01da2d'],
];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe("the read models' migrations", () => {
  it('begin with those released, each with the same SQL, in the same order', () => {
    expect(READ_MODEL_MIGRATIONS.slice(0, RELEASED.length).map((migration) => [migration.id, sha256(migration.sql)])).toEqual(RELEASED);
  });

  it('have each id once, numbered so that their order as text is their number\'s', () => {
    const ids = READ_MODEL_MIGRATIONS.map((migration) => migration.id);
    expect(ids.filter((id) => !/^\d{3}-[a-z0-9-]+$/.test(id))).toEqual([]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });
});
