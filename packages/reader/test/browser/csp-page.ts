/**
 * Browser side of csp.browser.test.ts: opens a package on a page served under the SPEC's Content
 * Security Policy and records every `securitypolicyviolation` the page sees while it does.
 */
import { openPackage } from '../../src/index'

const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0))
const violations: string[] = []
document.addEventListener('securitypolicyviolation', (e) =>
  violations.push(`${e.effectiveDirective} ${e.blockedURI}`),
)

/** Opens `good` (base64) with `wasm` as given and reads its entry back. */
async function openUnderCsp(good: string, wasm: boolean | undefined, entry: string) {
  const opened = await openPackage(b64(good), wasm === undefined ? {} : { wasm })
  const text = opened.ok ? await opened.package.readText(entry) : undefined
  // A violation event is dispatched as a task: let it arrive before reporting.
  await new Promise((resolve) => setTimeout(resolve, 50))
  return {
    ok: opened.ok,
    fatal: opened.diagnostics.filter((d) => d.severity === 'fatal').map((d) => d.code),
    text,
    violations: [...violations],
  }
}

Object.assign(globalThis, { openUnderCsp })
