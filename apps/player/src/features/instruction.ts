/**
 * Instruction packages (SPEC "Package types"). The platform records a story's link to its instruction when either is
 * published, and the public catalog gives each story an `instructionPackage` ({slug, title, package: {url}}) while
 * never listing the instruction itself. So the player finds the instruction of a story (`manifest.instruction`, an
 * id or slug) and the stories an instruction covers (`manifest.stories`, and every story linking it) in the catalog,
 * and opens the instruction's package by its file address, as its own package with its own envelope.
 */
import type { Manifest } from '@spkg/manifest'

/** The instruction package of a story, as the catalog gives it. */
export interface InstructionLink {
  slug: string
  title: string
  /** The package's address (same origin when the API names a loopback address of another port). */
  url: string
}

/** A story an instruction covers. */
export interface CoveredStory {
  slug: string
  title: string
}

type Item = Record<string, unknown>

const obj = (v: unknown): Item | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Item) : undefined
const str = (v: unknown) => (typeof v === 'string' ? v : undefined)

/** A package address the page can read: a loopback address of another port is read on the page's own origin. */
export function readableUrl(url: string, origin: string): string | undefined {
  try {
    const u = new URL(url, origin)
    const loopback = /^(127\.0\.0\.1|localhost|\[::1\])$/
    if (u.origin !== origin && loopback.test(u.hostname) && loopback.test(new URL(origin).hostname))
      return new URL(u.pathname + u.search, origin).href
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined
  } catch {
    return undefined
  }
}

/** The instruction a catalog page gives for a story linking `ref` (the story manifest's `instruction`). */
export function instructionFromCatalog(
  items: readonly unknown[],
  ref: string,
  origin: string,
): InstructionLink | undefined {
  for (const raw of items) {
    const item = obj(raw)
    const ip = obj(item?.instructionPackage)
    const url = str(obj(ip?.package)?.url)
    if (!item || !ip || !url) continue
    const linked =
      str(obj(item.metadata)?.instruction) === ref || str(item.instruction) === ref || str(ip.slug) === ref
    const readable = linked ? readableUrl(url, origin) : undefined
    if (readable) return { slug: str(ip.slug) ?? ref, title: str(ip.title) ?? 'Instructions', url: readable }
  }
  return undefined
}

/** The catalog stories an instruction covers: those its `stories` name (by slug) and those whose `instruction` is it. */
export function coveredFromCatalog(items: readonly unknown[], instruction: Manifest): CoveredStory[] {
  const names = new Set(instruction.stories ?? [])
  const out: CoveredStory[] = []
  for (const raw of items) {
    const item = obj(raw)
    const slug = str(item?.slug)
    if (!item || !slug) continue
    const meta = obj(item.metadata)
    const links = str(meta?.instruction) === instruction.id || names.has(slug)
    if (links) out.push({ slug, title: str(meta?.title) ?? str(item.title) ?? slug })
  }
  return out
}

/** Every item of the public catalog (pages of 100, at most 1,000), or an error with a `code`. */
export async function catalogItems(apiBase: string, fetchImpl: typeof fetch = fetch): Promise<unknown[]> {
  const out: unknown[] = []
  for (let page = 1; page <= 10; page++) {
    let body: { items?: unknown; total?: unknown }
    try {
      const res = await fetchImpl(`${apiBase}/catalog/stories?page=${page}&limit=100`, {
        headers: { accept: 'application/json' },
      })
      if (!res.ok) throw new Error(`the catalog answered ${res.status}`)
      body = (await res.json()) as typeof body
    } catch (e) {
      throw Object.assign(
        new Error(`The catalog could not be read (${e instanceof Error ? e.message : String(e)}).`),
        {
          code: 'player/catalog-failed',
        },
      )
    }
    const items = Array.isArray(body.items) ? body.items : []
    out.push(...items)
    if (items.length < 100 || (typeof body.total === 'number' && page * 100 >= body.total)) break
  }
  return out
}
