import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** README.md and every page under docs/: what a reader follows links through. */
export function documentationFiles(root: string): string[] {
  const pages = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? pages(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  return [join(root, 'README.md'), ...(existsSync(join(root, 'docs')) ? pages(join(root, 'docs')) : [])];
}

/** Text outside fenced code blocks, a line each, and with inline code spans blanked: links there are examples, not links. */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** The anchors of a page's headings, a repeated heading numbered as GitHub numbers it. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link of a page: `[text](target)` and images, outside code. */
export function linksOf(markdown: string): string[] {
  return proseLines(markdown).flatMap((line) => {
    const prose = line.replace(/`[^`]*`/g, '');
    return [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]);
  });
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** What is wrong with each relative link and anchor of the pages: `page: target (why)`, none when all resolve. */
export function brokenLinks(root: string, pages: readonly string[]): string[] {
  const anchorsByPage = new Map<string, Set<string>>();
  const anchors = (page: string) => {
    if (!anchorsByPage.has(page)) anchorsByPage.set(page, anchorsOf(readFileSync(page, 'utf8')));
    return anchorsByPage.get(page)!;
  };
  return pages.flatMap((page) =>
    linksOf(readFileSync(page, 'utf8'))
      .filter((target) => !EXTERNAL.test(target))
      .flatMap((target) => {
        const [path, anchor] = target.split('#', 2) as [string, string | undefined];
        const linked = path === '' ? page : resolve(dirname(page), decodeURI(path));
        const where = `${relative(root, page)}: ${target}`;
        if (!existsSync(linked)) return [`${where} (no such file)`];
        if (anchor === undefined || anchor === '') return [];
        if (statSync(linked).isFile() && linked.endsWith('.md')) {
          return anchors(linked).has(decodeURIComponent(anchor)) ? [] : [`${where} (no such heading)`];
        }
        return [`${where} (an anchor into a file that is not Markdown)`];
      }),
  );
}
