/**
 * Loads oidc-provider for the development identity provider without its "Unsupported runtime" line on Node 20.
 *
 * oidc-provider 9 prints `oidc-provider WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS
 * release.` when it is imported on any runtime whose LTS codename sorts before `Jod` (Node 22). That check
 * (lib/index.js) is only a support-policy notice: it changes no behaviour, and the package declares no `engines`.
 * What 9.x needs beyond Node 18 is `URL.parse` (Node 20.18+) and `crypto.hash` (Node 20.12+), both present on this
 * project's declared runtime (`engines.node >= 20.19`); the auth, dev-idp and e2e suites run it on Node 20.20.
 * Staying on 9 keeps the maintained release line; 8.x is not maintained. The provider here is development-only
 * (never started in production), so on Node 20 exactly that one line is dropped while the module loads; every other
 * oidc-provider warning still prints, and nothing is filtered on other runtimes.
 */
import type { Provider } from 'oidc-provider'

/** The line oidc-provider 9 writes with `console.warn` when imported on Node 20 (without its TTY colours). */
export const RUNTIME_WARNING =
  'oidc-provider WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release.'

/** Whether `console.warn` arguments are exactly oidc-provider's runtime notice (coloured on a TTY or not). */
export function isRuntimeWarning(args: readonly unknown[]): boolean {
  return (
    args.length === 1 &&
    typeof args[0] === 'string' &&
    // strips the ANSI colour codes oidc-provider adds on a TTY
    args[0].replace(/\u001b\[[0-9;]*m/g, '') === RUNTIME_WARNING
  )
}

/** Imports oidc-provider; on Node 20 its runtime notice is left out (see the module comment). */
export async function importOidcProvider(): Promise<typeof Provider> {
  if (process.versions.node.split('.')[0] !== '20') return (await import('oidc-provider')).default
  const original = console.warn
  const filtered = (...args: unknown[]) => {
    if (!isRuntimeWarning(args)) original.apply(console, args)
  }
  console.warn = filtered
  try {
    return (await import('oidc-provider')).default
  } finally {
    if (console.warn === filtered) console.warn = original
  }
}
