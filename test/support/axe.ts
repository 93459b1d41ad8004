import fs from 'node:fs';
import path from 'node:path';
import { Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../src/project';
import { PATIENCE_MS, within } from './wait';

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

/** What axe-core answers, as Runtime.evaluate returns it by value. */
interface Evaluated<T> {
  result: { value?: T };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

/**
 * Runs axe-core (WCAG 2.x A and AA, plus axe's best practices) on the page as it stands and fails
 * with every violation listed when there is one. axe runs in an isolated world of its own (the
 * DevTools protocol's Page.createIsolatedWorld), which shares the page's DOM and layout but not its
 * globals: a page's CSP (the hosted pages allow no script but their own nonce-tagged one) does not
 * apply to it, so the test never weakens the CSP it checks (no bypassCSP); and axe keeps the real
 * timers when a test has paused the page's clock (page.clock) to hold a page that moves on by itself,
 * so the check never races the page's own navigation. `rules` turns rules off for widgets a page
 * cannot change (each such exception says why where it is made). The whole check has a deadline.
 */
export async function expectAccessible(
  page: Page,
  state: string,
  rules: Record<string, { enabled: boolean }> = {},
): Promise<void> {
  const violations = await within(axeViolations(page, rules), PATIENCE_MS, `axe-core's check of ${state}`);
  if (violations.length > 0)
    throw new Error(
      `axe-core found ${violations.length} accessibility violation(s) on ${state} (${page.url()}):\n${describeViolations(violations)}`,
    );
}

async function axeViolations(page: Page, rules: Record<string, { enabled: boolean }>): Promise<AxeViolation[]> {
  const session = await page.context().newCDPSession(page);
  try {
    const { frameTree } = await session.send('Page.getFrameTree');
    const { executionContextId: contextId } = await session.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: 'axe-core',
    });
    const evaluate = async <T>(expression: string): Promise<T> => {
      const evaluated = (await session.send('Runtime.evaluate', {
        expression,
        contextId,
        awaitPromise: true,
        returnByValue: true,
      })) as Evaluated<T>;
      if (evaluated.exceptionDetails)
        throw new Error(
          `axe-core failed: ${evaluated.exceptionDetails.exception?.description ?? evaluated.exceptionDetails.text}`,
        );
      return evaluated.result.value as T;
    };
    if (!(await evaluate<boolean>(`'axe' in globalThis`))) await evaluate(axeScript());
    return await evaluate<AxeViolation[]>(
      `axe.run(document, { resultTypes: ['violations'], rules: ${JSON.stringify(rules)} }).then((result) => result.violations)`,
    );
  } finally {
    await session.detach().catch(() => undefined);
  }
}
