import type { Page } from 'playwright-core'

/** Calls the function the page's entry script defined as `globalThis[name]` with `args`; its result. */
export function callInPage<T>(page: Page, name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ([n, a]) =>
      (globalThis as unknown as Record<string, (...x: unknown[]) => Promise<T>>)[n as string]!(
        ...(a as unknown[]),
      ),
    [name, args] as const,
  )
}
