// The packages live with `pnpm bench reader`, which measured them first.
import { buildPackage } from '@spkg/test-utils'
import { type BenchSpec, specs as benchSpecs, noise, pack as packBench, prose } from '../reader/packages.ts'

export * from '../reader/packages.ts'

/** A package of this bench only: the quick look of a large File (`PACKAGES=cover-48mib`). */
export interface PeekSpec {
  name: string
  key: 'cover-48mib'
  parts: Record<string, string>
  media: Record<string, Uint8Array>
}

/**
 * 48 MiB, as peek-blob.browser.test.ts builds it: a 20 KiB cover, two parts and a large stored
 * film, the manifest written first and naming the cover. Only run when `PACKAGES` names it.
 */
export const coverSpec: PeekSpec = {
  name: 'a cover, two parts and a 48 MiB film',
  key: 'cover-48mib',
  parts: { 'story/0001-road.sty': prose(6_400, 1), 'story/0002-end.sty': 'The end.\n' },
  media: { 'assets/cover.webp': noise(20 * 1024, 3), 'assets/film.webm': noise(48 * 1024 * 1024, 5) },
}

/** The package bytes of a spec of either kind. */
export function pack(spec: BenchSpec | PeekSpec): Uint8Array {
  if (spec.key !== 'cover-48mib') return packBench(spec)
  return buildPackage(
    {
      manifest: { title: spec.name, cover: 'assets/cover.webp' },
      parts: spec.parts,
      assets: spec.media,
      integrity: true,
      entry: { 'assets/cover.webp': { method: 0 }, 'assets/film.webm': { method: 0 } },
    },
    { level: 6 },
  )
}

/** The packages a run measures: the three of `pnpm bench reader`, and those `PACKAGES` names. */
export const specs: Array<BenchSpec | PeekSpec> = [
  ...benchSpecs,
  ...(process.env.PACKAGES?.split(',').includes('cover-48mib') ? [coverSpec] : []),
]
