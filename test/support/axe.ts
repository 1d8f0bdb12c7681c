import { join } from 'node:path';
import type { Page } from 'playwright-core';

const AXE = join(__dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

export const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;

// Evaluated in the page, where the DOM exists (the tests' TypeScript has no DOM library).
const RUN_AXE = `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((v) => ({
  id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')),
})))`;
const SCRIPTS = `(() => {
  const scripts = Array.from(document.querySelectorAll('script'));
  return {
    external: scripts.filter((s) => s.src).map((s) => s.src),
    inlineBytes: scripts.filter((s) => !s.src).reduce((sum, s) => sum + new TextEncoder().encode(s.textContent || '').length, 0),
  };
})()`;

/**
 * Runs axe-core in the page and returns its serious and critical findings. The page's CSP forbids
 * injected scripts, so the context that runs this must be created with `bypassCSP: true`.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeFinding[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate<AxeFinding[]>(RUN_AXE);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The JavaScript a page carries (measure before running axe): scripts it fetches, and the bytes of its inline ones. */
export function pageJavaScriptBytes(page: Page): Promise<{ external: string[]; inlineBytes: number }> {
  return page.evaluate(SCRIPTS);
}

/** Nothing sticks out sideways: wide tables scroll inside their own box. */
export function fitsViewportWidth(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');
}
