/**
 * The three packages of `pnpm bench reader`, also measured by `pnpm bench reader-browser` and, for
 * their media, `pnpm bench validate`: media stored, text deflated at level 6, `manifest.integrity`
 * over every file, as `spkg pack` writes them.
 */
import { createHash } from 'node:crypto'
import { buildPackage, type EntrySpec } from '@spkg/test-utils'
import { noise, prose } from './content'

export { noise, prose }

/** One benchmark package: its files by archive path (text parts and media). */
export interface BenchSpec {
  name: string
  /** Short key for the command line and the results. */
  key: 'realistic-30mb' | 'mixed-50mb' | 'small-500'
  parts: Record<string, string>
  media: Record<string, Uint8Array>
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i)
const pad = (i: number) => String(i).padStart(4, '0')

/** The three packages. */
export const specs: BenchSpec[] = [
  {
    name: 'realistic 30 MB (120 parts, 60 media)',
    key: 'realistic-30mb',
    parts: Object.fromEntries(range(120).map((i) => [`story/${pad(i)}-part.sty`, prose(24_000, i + 1)])),
    media: Object.fromEntries(range(60).map((i) => [`assets/img-${pad(i)}.webp`, noise(460 * 1024, i + 7)])),
  },
  {
    name: '500 entries, ~50 MB',
    key: 'mixed-50mb',
    parts: Object.fromEntries(range(250).map((i) => [`story/${pad(i)}-part.sty`, prose(90_000, i + 1)])),
    media: Object.fromEntries(range(249).map((i) => [`assets/m-${pad(i)}.ogg`, noise(108 * 1024, i + 9)])),
  },
  {
    name: '500 small entries',
    key: 'small-500',
    parts: Object.fromEntries(range(499).map((i) => [`story/${pad(i)}-p.sty`, prose(2_000, i + 1)])),
    media: {},
  },
]

/** The package bytes of `spec`. */
export function pack(spec: BenchSpec): Uint8Array {
  const entry: Record<string, Partial<EntrySpec>> = {}
  for (const k of Object.keys(spec.media)) entry[k] = { method: 0 }
  return buildPackage(
    { manifest: { title: spec.name }, parts: spec.parts, assets: spec.media, integrity: true, entry },
    { level: 6 },
  )
}

/** The `sha256sum -c` input the native tools check: one line per part and medium of `spec`. */
export function checksums(spec: Pick<BenchSpec, 'parts' | 'media'>): string {
  return Object.entries({ ...spec.parts, ...spec.media })
    .map(([path, data]) => `${createHash('sha256').update(data).digest('hex')}  ${path}\n`)
    .join('')
}

/** The native tools' shell command: `file` unzipped into `dir` (tmpfs), then `sums` checked there. */
export function nativeCommand(file: string, dir: string, sums: string): string {
  return `unzip -qo '${file}' -d '${dir}' && cd '${dir}' && sha256sum -c --quiet --strict '${sums}'`
}
