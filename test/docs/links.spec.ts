import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { anchorsOf, brokenLinks, documentationFiles } from './markdown-links';

const ROOT = resolve(__dirname, '../..');

it('every relative link and anchor in README.md and docs/ resolves', () => {
  expect(brokenLinks(ROOT, documentationFiles(ROOT))).toEqual([]);
});

describe('the link check', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'docs-links-'));
    mkdirSync(join(root, 'docs', 'guides'), { recursive: true });
    writeFileSync(join(root, 'docs', 'guides', 'payouts.md'), '# Payouts\n\n## Payout callbacks\n\n## Schedule\n\n## Schedule\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('names a link to a page that does not exist, and a heading that does not', () => {
    writeFileSync(
      join(root, 'README.md'),
      '# Service\n\n[payouts](docs/guides/payout.md), [callbacks](docs/guides/payouts.md#payout-callback), [fine](docs/guides/payouts.md#schedule-1)\n',
    );
    expect(brokenLinks(root, documentationFiles(root))).toEqual([
      'README.md: docs/guides/payout.md (no such file)',
      'README.md: docs/guides/payouts.md#payout-callback (no such heading)',
    ]);
  });

  it('reads a link in code as an example, not a link', () => {
    writeFileSync(join(root, 'README.md'), '# Service\n\n`[x](missing.md)`\n\n```md\n[y](missing.md)\n```\n');
    expect(brokenLinks(root, documentationFiles(root))).toEqual([]);
  });

  it("makes anchors as GitHub does: lower case, punctuation and code marks dropped, repeats numbered", () => {
    expect([...anchorsOf("# An escrow's `orderId`\n## Rules: one entry per money event\n## Rules: one entry per money event\n")]).toEqual([
      'an-escrows-orderid',
      'rules-one-entry-per-money-event',
      'rules-one-entry-per-money-event-1',
    ]);
  });
});
