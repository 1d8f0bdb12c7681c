import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/** The page scripts/docs-reference.js makes from the code as it is now. */
const generated = (page: string) => execFileSync(process.execPath, [join(ROOT, 'scripts', 'docs-reference.js'), '--print', page], { encoding: 'utf8' });

it.each(['errors', 'configuration'])('docs/reference/%s.md is what the code generates (run `npm run docs:reference`)', (page) => {
  expect(readFileSync(join(ROOT, 'docs', 'reference', `${page}.md`), 'utf8')).toEqual(generated(page));
});
