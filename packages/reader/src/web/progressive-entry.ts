/**
 * Browser side of progressive.browser.test.ts: opens a remote package progressively in Chromium,
 * reads the entry part, then the second part through the story source (as the engine does when
 * the story enters it), and returns what happened for Node to check.
 */
import { isProgressivePackage, openPackageUrl } from '../index'

async function runProgressive(url: string) {
  const r = await openPackageUrl(url)
  if (!r.ok) return { ok: false, codes: r.diagnostics.map((d) => `${d.code} ${d.message}`) }
  const pkg = r.package
  if (!isProgressivePackage(pkg)) return { ok: true, progressive: false }
  const events: string[] = []
  pkg.onPartLoad((e) => events.push(`${e.type} ${e.part}`))
  const atOpen = [...pkg.loadedParts].sort()
  const source = pkg.storySource()
  const entry = (await source.readPart(pkg.entry))?.split('\n')[0]
  const second = (await source.readPart(pkg.parts[1]!))?.split('\n')[0]
  pkg.close()
  return { ok: true, progressive: true, atOpen, entry, second, events }
}

;(globalThis as unknown as { runProgressive: typeof runProgressive }).runProgressive = runProgressive
