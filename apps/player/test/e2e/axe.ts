/**
 * axe-core in the real page, for the player's e2e files. axe's source is evaluated through the DevTools protocol
 * (`page.evaluate`), which the page's CSP does not govern: the page itself keeps running under its real policy.
 */
import axe from 'axe-core'
import type { Page } from 'playwright-core'

interface Violation {
  id: string
  impact: string | null
  help: string
  nodes: Array<{ target: unknown[]; failureSummary?: string }>
}

/** The serious and critical violations axe finds in the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source)
  // New blocks fade in (0.35 s): contrast is measured on the settled page, as a reader sees it.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)))
  const violations = (await page.evaluate(async () => {
    const inPage = (
      window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: unknown }> } }
    ).axe
    return (await inPage.run(document, { resultTypes: ['violations'] })).violations
  })) as Violation[]
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}) at ${v.nodes
          .slice(0, 3)
          .map((n) => JSON.stringify(n.target))
          .join(', ')}`,
    )
}
