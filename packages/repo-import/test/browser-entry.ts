/** Bundled for Chromium by browser-path.browser.test.ts: the isomorphic import, as a page runs it. */
import { type ImportRepositoryOptions, importRepository } from '../src/index'

async function importIn(url: string, options: ImportRepositoryOptions) {
  const r = await importRepository(url, options)
  return {
    ok: r.ok,
    codes: r.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.code),
    messages: r.diagnostics.map((d) => d.message),
    title: r.ok ? (r.package.manifest?.title ?? null) : null,
    source: r.source ?? null,
  }
}

;(globalThis as Record<string, unknown>).importIn = importIn
