import fs from 'node:fs';
import path from 'node:path';
import { Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../src/project';

let axeSource: string | null = null;
const axeScript = () =>
  (axeSource ??= fs.readFileSync(path.join(PROJECT_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: AxeNode[];
}

/** The violations as a person reads them: rule, impact, what to fix, and each element with axe's summary. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((violation) =>
      [
        `${violation.id} (${violation.impact ?? 'n/a'}): ${violation.help} <${violation.helpUrl}>`,
        ...violation.nodes.map(
          (node) => `  at ${JSON.stringify(node.target)}: ${(node.failureSummary ?? '').replace(/\s*\n\s*/g, '; ')}`,
        ),
      ].join('\n'),
    )
    .join('\n');
}

/**
 * Runs axe-core (WCAG 2.x A and AA, plus axe's best practices) on the page as it stands and fails
 * with every violation listed when there is one. axe is evaluated through the DevTools protocol
 * rather than added as a <script> (page.addScriptTag): a page's CSP (the hosted pages allow no script
 * but their own nonce-tagged one) blocks an added script, not an evaluation, and the test must not
 * weaken the CSP it checks (no bypassCSP). `rules` turns rules off for widgets a page cannot change
 * (each such exception says why where it is made).
 */
export async function expectAccessible(
  page: Page,
  state: string,
  rules: Record<string, { enabled: boolean }> = {},
): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeScript());
  const violations = (await page.evaluate(async (ruleSettings) => {
    const axe = (
      globalThis as unknown as {
        axe: { run: (context: unknown, options: unknown) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      resultTypes: ['violations'],
      rules: ruleSettings,
    });
    return result.violations;
  }, rules)) as AxeViolation[];
  if (violations.length > 0)
    throw new Error(
      `axe-core found ${violations.length} accessibility violation(s) on ${state} (${page.url()}):\n${describeViolations(violations)}`,
    );
}
