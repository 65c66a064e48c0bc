/**
 * The validation worker (a `worker_threads` thread of {@link createValidationPool}): runs `validatePackageBytes`,
 * exactly what `spkg validate` runs, on an uploaded file read into memory once, and gathers what the version
 * record needs: the signature status, the per-file `integrity` map (the manifest's, else computed here) and the
 * cover's bytes. One job at a time; the pool bounds its memory (`resourceLimits`) and its time.
 */
import { createHash } from 'node:crypto'
import { readlinkSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { setPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'
import { validatePackageBytes } from '@spkg/validator/validate'
import type { ValidationJob, ValidationOutcome } from './validation-types'

const MANIFEST = 'manifest.json'

async function run(job: ValidationJob): Promise<ValidationOutcome> {
  let signature: ValidationOutcome['signature'] = { status: 'unsigned' }
  let integrity: Record<string, string> = {}
  let cover: ValidationOutcome['cover'] = null
  // The reader holds the whole archive in memory whatever it is given: read the file once, as bytes. A file-backed
  // Blob costs twice its size here (Blob.arrayBuffer's copy stays alongside the reader's), 95 MiB for a 50 MB package.
  const file = await readFile(job.file)
  // A plain Uint8Array view of the Buffer's memory (not a copy, and no Buffer semantics for `slice`).
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength)
  const report = await validatePackageBytes(bytes, {
    trustedKeys: job.trustedKeys,
    onOpened: async (pkg) => {
      signature = pkg.signature.fingerprint
        ? { status: pkg.signature.status, fingerprint: pkg.signature.fingerprint }
        : { status: pkg.signature.status }
      const declared = pkg.manifest?.integrity
      if (declared && Object.keys(declared).length > 0) integrity = { ...declared }
      else {
        integrity = {}
        // The reader's hashes when it computed them (a checksum file), else stored files hashed where they lie in
        // the archive (`entryView`): `readBytes` copies each, and for a 50 MB package those copies put +30 MiB on
        // the API's peak RSS while they waited for a collection (bench/api-upload).
        for (const e of pkg.entries) {
          if (e.path === MANIFEST || e.path.startsWith('META-PKG/')) continue
          integrity[e.path] =
            pkg.hashes.get(e.path) ??
            createHash('sha256')
              .update(await pkg.entryView(e.path))
              .digest('hex')
        }
      }
      const coverPath = pkg.manifest?.cover
      if (coverPath && pkg.has(coverPath)) {
        const ext = coverPath.slice(coverPath.lastIndexOf('.') + 1).toLowerCase()
        if (job.coverTypes.includes(ext)) {
          const bytes = await pkg.readBytes(coverPath)
          cover = { ext, bytes, sha256: createHash('sha256').update(bytes).digest('hex') }
        }
      }
    },
  })
  return {
    loads: report.loads,
    valid: report.valid,
    type: report.type,
    layout: report.layout,
    manifest: report.manifest as ValidationOutcome['manifest'],
    // Capped by validatePackageBytes (200, the most severe): a package naming 400,000 missing parts posts a count.
    diagnostics: report.diagnostics,
    ...(report.omitted ? { omitted: report.omitted } : {}),
    signature,
    integrity,
    cover,
  }
}

// This thread at the lowest CPU priority (Linux: a thread id is a pid to setpriority): on a machine of few cores a
// validation running flat out (a hostile part taking the worker to its heap cap for seconds) otherwise takes CPU from
// the threads that answer requests. bench/api-stall's missing-parts attack, PostgreSQL, 2 cores under load: health
// p99 282 and 115 ms without, 57 and 50 ms with (alternating runs; equal, 17 ms, on a quiet machine). Elsewhere: no-op.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 19)
} catch {}
parentPort?.on('message', (job: ValidationJob) => {
  run(job).then(
    (outcome) => parentPort?.postMessage({ ok: true, outcome }),
    (err: unknown) =>
      parentPort?.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) }),
  )
})
