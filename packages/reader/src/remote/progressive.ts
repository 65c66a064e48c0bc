/**
 * Progressive loading of a remote package (`loading: 'progressive'` in its manifest): the open
 * fetches the end records and central directory, the manifest, `META-PKG/`, every file that is not
 * a part, the entry part and the `preload` parts, and runs every open step on them; the other
 * parts stay on the server (only their local headers are fetched, so the structure checks see
 * every header). A deferred part is fetched when the story enters it, when the reader passes
 * `LIMITS.progressivePrefetchAt` of the part before it (`progress`), or when asked
 * (`loadPart`); `locked` parts only after `unlock(part)`. Every deferred part is checked when it
 * arrives (its CRC-32, its size under the limits, its SHA-256 against `integrity`, which the open
 * already checked against the checksum file) before any of its bytes is handed out: a mismatch
 * is `pkg/integrity-mismatch` for that part.
 *
 * An encrypted container (`.spkg.enc`) is opened the same way over its plaintext
 * (`decrypted-source.ts`): only the chunks covering the ranges above are fetched, each
 * authenticated before it is used.
 *
 * A package that is not progressive, has no usable `integrity` hash for a part, or whose
 * structure the quick read cannot follow is read whole (over ranges), so that its diagnostics are
 * exactly those of a local open.
 */
import { normalizeDigest } from '@spkg/integrity'
import type { StorySource } from '@spkg/manifest'
import { createDiagnostic, type Diagnostic, isSpkgError, LIMITS, SpkgError } from '@spkg/manifest'
import { extractEntry, readZipDirectory, type ZipEntry } from '@spkg/zip'
import type { SavedPackage } from '../cache/offline'
import type { PackageCache } from '../cache/types'
import { isEncrypted } from '../open/encrypted-magic'
import { openArchive, peekArchive } from '../open/open-archive'
import { decryptionFailure } from '../open/steps/01-input'
import type { OpenOptions, OpenResult, SpkgPackage } from '../open/types'
import type { ReaderBackend } from '../zip/backend'
import type { RangeSource } from './range-source'

/** What a progressive package tells its host about a part being fetched. */
export interface PartLoadEvent {
  type: 'part-loading' | 'part-loaded' | 'part-failed'
  part: string
  /** Bytes fetched for this part (`part-loaded`). */
  bytes?: number
  /** Why it failed (`part-failed`). */
  diagnostic?: Diagnostic
}

/** A package opened with `loading: 'progressive'`: {@link SpkgPackage} plus the loader. */
export interface ProgressivePackage extends SpkgPackage {
  /** True: parts are fetched on demand. */
  readonly progressive: true
  /** Parts whose bytes are here and verified. */
  readonly loadedParts: ReadonlySet<string>
  /** Fetches and verifies a part (at once if it is here). Rejects with `pkg/integrity-mismatch`, `pkg/locked-part`... */
  loadPart(part: string): Promise<void>
  /** The embedder says the lock condition of a `locked` part holds: it may now be fetched. */
  unlock(part: string): void
  /**
   * How far the reader is through `part` (0 to 1, from `@spkg/story`'s progress): past
   * `LIMITS.progressivePrefetchAt` the parts reachable from it start downloading.
   */
  progress(part: string, fraction: number): void
  /** Listens to part loads (to show "loading"); returns the function that stops listening. */
  onPartLoad(listener: (event: PartLoadEvent) => void): () => void
  /**
   * With a `cache` given to the open and `offline: true` in the manifest: every file is fetched
   * in the background after the open and kept in the cache (`keepOffline`); resolves when the
   * package plays with the network gone. Undefined otherwise.
   */
  readonly offlineReady?: Promise<SavedPackage | undefined>
}

/** True for a package opened progressively. */
export function isProgressivePackage(pkg: SpkgPackage): pkg is ProgressivePackage {
  return (pkg as Partial<ProgressivePackage>).progressive === true
}

/** The end-of-central-directory record in the tail: where the directory starts. */
function centralDirectoryStart(bytes: Uint8Array, tailStart: number): number | undefined {
  for (let i = bytes.length - 22; i >= tailStart; i--) {
    if (bytes[i] !== 0x50 || bytes[i + 1] !== 0x4b || bytes[i + 2] !== 5 || bytes[i + 3] !== 6) continue
    const view = new DataView(bytes.buffer, bytes.byteOffset + i, 22)
    if (i + 22 + view.getUint16(20, true) !== bytes.length) continue
    const size = view.getUint32(12, true)
    const offset = view.getUint32(16, true)
    // ZIP64 or values that do not add up: the whole-file path reads (and judges) it.
    if (size === 0xffffffff || offset === 0xffffffff || offset + size > i) return undefined
    return offset
  }
  return undefined
}

/** The parts a manifest lists, in order. */
function partFiles(parts: unknown): string[] {
  if (!Array.isArray(parts)) return []
  return parts.flatMap((p) =>
    typeof p === 'string' ? [p] : typeof p?.file === 'string' ? [p.file as string] : [],
  )
}

/**
 * Opens `source` progressively when its manifest asks for it (see the module comment); otherwise
 * reads it whole and opens it. Never rejects on bad input (only when the signal aborts);
 * `remoteFailure` turns the range client's errors into diagnostics.
 */
export async function openRemote(
  source: RangeSource,
  options: OpenOptions,
  backend: ReaderBackend,
  failure: (e: unknown) => Diagnostic[],
  cache?: PackageCache,
  encrypted = false,
): Promise<OpenResult> {
  if (!source.ranged) {
    try {
      return await openArchive(await source.readAll(), options, backend)
    } catch (e) {
      return { ok: false, diagnostics: failure(e) }
    }
  }
  const size = source.size
  const bytes = new Uint8Array(size)
  const filled: Array<[number, number]> = []
  /** The whole package (what is not here yet, in 4 MiB requests), opened as usual. */
  const whole = async (): Promise<OpenResult> => {
    try {
      const gaps: Array<[number, number]> = []
      let at = 0
      for (const [s, e] of [...filled].sort((a, b) => a[0] - b[0])) {
        for (let o = at; o < s; o += 4 << 20) gaps.push([o, Math.min(s, o + (4 << 20))])
        at = Math.max(at, e)
      }
      for (let o = at; o < size; o += 4 << 20) gaps.push([o, Math.min(size, o + (4 << 20))])
      // Chunks one by one through readMany would coalesce them into one request: fetch them apart.
      await Promise.all(gaps.map((g) => fill([g])))
      return await openArchive(bytes, options, backend)
    } catch (e) {
      return { ok: false, diagnostics: failure(e) }
    }
  }
  const isFilled = (s: number, e: number) => filled.some(([a, b]) => a <= s && e <= b)
  const fill = async (ranges: Array<[number, number]>) => {
    const want = ranges.filter(([s, e]) => e > s && !isFilled(s, e))
    if (want.length === 0) return 0
    const got = await source.readMany(want.map(([s, e]) => ({ offset: s, length: e - s })))
    let n = 0
    want.forEach(([s, e], i) => {
      bytes.set(got[i]!, s)
      filled.push([s, e])
      n += e - s
    })
    return n
  }
  let opened: OpenResult
  let deferred: Map<string, string>
  let entries: readonly ZipEntry[]
  let spans: Map<string, [number, number]>
  let locked: Set<string>
  let order: string[]
  try {
    const tail = Math.min(size, 65_536)
    await fill([[size - tail, size]])
    const cd = centralDirectoryStart(bytes, size - tail)
    if (cd === undefined) {
      // An encrypted container: opened over its plaintext, fetching and authenticating only the
      // chunks each read needs (so it stays progressive).
      if (!encrypted && isEncrypted(await source.read(0, Math.min(8, size)))) {
        let plain: RangeSource
        try {
          // Loaded on the first encrypted package only (bench/bundle).
          const { decryptedSource } = await import('./decrypted-source')
          plain = await decryptedSource(source, options.decryptionKey)
        } catch (e) {
          if (isSpkgError(e) && (e.code === 'pkg/key-required' || e.code === 'pkg/decrypt-failed'))
            return { ok: false, diagnostics: [decryptionFailure(e)] }
          throw e
        }
        return openRemote(plain, options, backend, failure, cache, true)
      }
      return whole()
    }
    await fill([[cd, size]])
    const maxBytes = options.limits?.maxUncompressedBytes ?? LIMITS.maxUncompressedBytes
    const dir = readZipDirectory(
      bytes,
      { maxEntries: options.limits?.maxEntries ?? LIMITS.maxEntries, maxUncompressedBytes: maxBytes },
      { localHeaders: 'lazy' },
    )
    if (!dir.directory || dir.diagnostics.some((d) => d.severity === 'fatal')) return whole()
    entries = dir.directory.entries
    // Each entry's span: from its local header to the next entry's (or the directory).
    const starts = [...new Set(entries.map((e) => e.localHeaderOffset))].sort((a, b) => a - b)
    const nextStart = (at: number) => starts.find((s) => s > at) ?? cd
    spans = new Map(entries.map((e) => [e.name, [e.localHeaderOffset, nextStart(e.localHeaderOffset)]]))
    const manifestEntry = entries.find((e) => e.name === 'manifest.json')
    if (!manifestEntry) return whole()
    const fillSpan = async (e: ZipEntry) => void (await fill([spans.get(e.name)!]))
    const peek = await peekArchive(bytes, options, backend, {
      fill: async () => {},
      fillHeader: fillSpan,
    })
    const manifest = peek.ok ? peek.manifest : undefined
    if (!manifest) return whole()
    if (manifest.loading !== 'progressive') return whole()
    order = partFiles(manifest.parts)
    const integrity = (manifest.integrity ?? {}) as Record<string, unknown>
    const eager = new Set([order[0], ...(manifest.preload ?? [])])
    locked = new Set(manifest.locked ?? [])
    deferred = new Map()
    for (const part of order.slice(1)) {
      if (eager.has(part) && !locked.has(part)) continue
      const listed = integrity[part]
      const hash = typeof listed === 'string' ? normalizeDigest(listed) : undefined
      const entry = entries.find((e) => e.name === part)
      // Without a hash to check it against on arrival, a part is not deferred.
      if (hash && entry && !entry.isDirectory) deferred.set(part, hash)
    }
    if (deferred.size === 0) return whole()
    // Everything but the deferred parts' data; of those, the local header (and data descriptor).
    await fill(entries.filter((e) => !deferred.has(e.name)).map((e) => spans.get(e.name)!))
    // One read per deferred header: the fixed 30 bytes, the name and room for a usual extra field.
    const guess = (e: ZipEntry) => {
      const [at, end] = spans.get(e.name)!
      return [at, Math.min(at + 30 + new TextEncoder().encode(e.name).length + 64, end)] as [number, number]
    }
    const deferredEntries = entries.filter((e) => deferred.has(e.name))
    await fill(deferredEntries.map(guess))
    const second: Array<[number, number]> = []
    for (const e of deferredEntries) {
      const at = e.localHeaderOffset
      const view = new DataView(bytes.buffer, bytes.byteOffset + at, Math.min(30, size - at))
      if (view.byteLength < 30) return whole()
      const dataStart = at + 30 + view.getUint16(26, true) + view.getUint16(28, true)
      const [, end] = spans.get(e.name)!
      // A longer extra field than guessed: the rest of the header in a second read.
      if (dataStart > guess(e)[1]) second.push([guess(e)[1], Math.min(dataStart, end)])
      if (e.flags & 8) second.push([Math.min(dataStart + e.compressedSize, end), end])
    }
    await fill(second)
    // Confirm the deferred parts' local headers now (as the open does), so they can be read later.
    for (const e of entries.filter((x) => deferred.has(x.name))) if (!dir.checkLocal?.(e, [])) return whole()
    opened = await openArchive(bytes, options, backend, deferred)
  } catch (e) {
    return { ok: false, diagnostics: failure(e) }
  }
  if (!opened.ok) return opened
  const pkg = progressivePackage(opened.package)
  if (cache && pkg.manifest?.offline === true) {
    // Loaded on demand: an open without a cache never loads the cache code.
    const ready = import('../cache/offline').then((m) => m.keepOffline(cache, pkg))
    ready.catch(() => {})
    Object.assign(pkg, { offlineReady: ready })
  }
  return { ...opened, package: pkg }

  function progressivePackage(pkg: SpkgPackage): ProgressivePackage {
    const loaded = new Set(order.filter((p) => !deferred.has(p)))
    const unlocked = new Set<string>()
    const loading = new Map<string, Promise<void>>()
    const listeners = new Set<(event: PartLoadEvent) => void>()
    const emit = (event: PartLoadEvent) => {
      for (const l of listeners) l(event)
    }
    const byName = new Map(entries.map((e) => [e.name, e]))

    const loadPart = (part: string): Promise<void> => {
      if (!deferred.has(part) || loaded.has(part)) return Promise.resolve()
      if (locked.has(part) && !unlocked.has(part))
        return Promise.reject(
          new SpkgError(
            'pkg/fetch-failed',
            `The part "${part}" is locked; unlock(part) it before it is fetched.`,
          ),
        )
      let p = loading.get(part)
      if (!p) {
        p = fetchPart(part)
        loading.set(part, p)
        p.catch(() => loading.delete(part))
      }
      return p
    }

    const fetchPart = async (part: string) => {
      emit({ type: 'part-loading', part })
      const entry = byName.get(part)!
      const [start, end] = spans.get(part)!
      const before = new Uint8Array(bytes.subarray(start, end))
      let fetched = 0
      try {
        fetched = await fill([[start, end]])
        const out: Diagnostic[] = []
        // The same checks as an open: the local header as the directory read it, size and CRC-32.
        const data = extractEntry(bytes, entry, backend, { remaining: entry.size, limit: entry.size }, out)
        if (!data) throw new SpkgError(out[0]!.code, out[0]!.message, { diagnostics: out })
        const hash = await backend.sha256Hex(data)
        if (hash !== deferred.get(part)) {
          const d = createDiagnostic(
            'pkg/integrity-mismatch',
            `"${part}" does not match its SHA-256 in manifest.integrity; it was not used.`,
            { path: part },
          )
          throw new SpkgError(d.code, d.message, { diagnostics: [d] })
        }
      } catch (e) {
        // Nothing of a part that failed stays: the next try fetches it again.
        bytes.set(before, start)
        const i = filled.findIndex(([a, b]) => a === start && b === end)
        if (i >= 0) filled.splice(i, 1)
        const diagnostic =
          e instanceof SpkgError
            ? (e.diagnostics[0] ?? createDiagnostic(e.code, e.message))
            : createDiagnostic('pkg/fetch-failed', String(e))
        emit({ type: 'part-failed', part, diagnostic })
        throw e
      }
      loaded.add(part)
      emit({ type: 'part-loaded', part, bytes: fetched })
    }

    const ensure = async (path: string) => {
      if (deferred.has(path)) await loadPart(path)
    }
    /**
     * The parts a part's gates (`[[ target ]]`) and links (`[text > target]`) name, resolved as
     * the engine does (as written, else beside the part); without any, the next part in play order.
     */
    const reachable = async (part: string): Promise<string[]> => {
      const text = await pkg.readText(part)
      const dir = part.slice(0, part.lastIndexOf('/') + 1)
      const found = new Set<string>()
      for (const m of text.matchAll(/\[\[\s*([^\]\s]+)\s*\]\]|\[[^\]\n]*>\s*([^\]\s]+)\s*\]/g)) {
        const target = (m[1] ?? m[2]!).split(':')[0]!
        const path = order.includes(target) ? target : `${dir}${target}`
        if (order.includes(path) && path !== part) found.add(path)
      }
      if (found.size > 0) return [...found]
      const next = order[order.indexOf(part) + 1]
      return next === undefined ? [] : [next]
    }
    const reach = new Map<string, Promise<string[]>>()
    return {
      ...pkg,
      progressive: true,
      loadedParts: loaded,
      readBytes: async (path) => {
        await ensure(path)
        return pkg.readBytes(path)
      },
      readText: async (path) => {
        await ensure(path)
        return pkg.readText(path)
      },
      entryView: async (path) => {
        await ensure(path)
        return pkg.entryView(path)
      },
      mediaUrl: (path) => pkg.mediaUrl(path),
      storySource(): StorySource {
        const s = pkg.storySource()
        return {
          ...s,
          readPart: async (path) => {
            await ensure(path)
            return s.readPart(path)
          },
        }
      },
      close: () => pkg.close(),
      loadPart,
      unlock(part) {
        unlocked.add(part)
      },
      progress(part, fraction) {
        if (fraction < LIMITS.progressivePrefetchAt || !order.includes(part)) return
        let targets = reach.get(part)
        if (!targets) {
          targets = reachable(part)
          reach.set(part, targets)
          targets.catch(() => reach.delete(part))
        }
        targets.then(
          (parts) => {
            for (const next of parts)
              if (!locked.has(next) || unlocked.has(next)) loadPart(next).catch(() => {})
          },
          () => {},
        )
      },
      onPartLoad(listener) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    }
  }
}
