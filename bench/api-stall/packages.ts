/**
 * The packages of api-stall's publishing attacks: built before the clock starts.
 */
import { buildPackage } from '@spkg/test-utils'

const ID = (n: number) => `6f1c2a9e-0b7d-4c1e-9a53-${n.toString(16).padStart(12, '0')}`
const COVER = { 'assets/cover.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' }
const manifestOf = (n: number, version: string, extra: Record<string, unknown> = {}) => ({
  id: ID(n),
  title: 'The Inn',
  version,
  description: 'A road that forks.',
  language: 'en',
  genre: 'fantasy',
  tags: ['inn'],
  cover: 'assets/cover.svg',
  ...extra,
})
const PARTS = { 'story/0001-inn.sty': '# Inn\n\nDawn at the inn.\n' }

/** A normal package (another creator's). */
export const normalPackage = (n: number, version: string) =>
  buildPackage({ manifest: manifestOf(n, version), parts: PARTS, assets: COVER })

/** A package of about 41 KB whose manifest `description` is 40 MiB of one letter. */
export const hugeDescriptionPackage = (n: number) =>
  buildPackage({
    manifest: manifestOf(n, '1.0.0', { description: 'a'.repeat(40 * 1024 * 1024) }),
    parts: PARTS,
    assets: COVER,
  })

/** A package of a few hundred bytes whose manifest has one unknown field nested `depth` deep. */
export function deepFieldPackage(n: number, version: string, depth = 5000) {
  const base = JSON.stringify(manifestOf(n, version, { cover: undefined }))
  const manifest = `${base.slice(0, -1)},"extra":${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}}`
  return buildPackage({ manifest, parts: PARTS })
}

/** A package (about 1 MB compressed) whose one part links `count` parts that do not exist. */
export function missingPartsPackage(n: number, count = 400_000) {
  const links: string[] = ['# Inn', '']
  for (let i = 0; i < count; i++) links.push(`[[ m${i}.sty ]]`)
  return buildPackage({
    manifest: manifestOf(n, '1.0.0'),
    parts: { 'story/0001-inn.sty': `${links.join('\n')}\n` },
    assets: COVER,
  })
}
