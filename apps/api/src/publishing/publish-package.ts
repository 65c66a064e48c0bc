/**
 * One package upload from a received file to a committed version, shared by
 * `POST /api/stories/:slug/versions`, the development seed and the repository import: validate in the pool
 * (exactly `spkg validate`), refuse on a fatal or error diagnostic, check the type, the story's package id and the
 * quota, store the package and its cover (files first, record second: a crash between leaves only an unreferenced
 * file for the sweep; an error between removes them at once), insert the version under the files' lock
 * (src/db/file-access.ts), then check the instruction links both ways.
 */
import type { Diagnostic } from '@spkg/manifest'
import type { Db } from '../db/connection'
import { deleteFilesLocked, withFileLock } from '../db/file-access'
import {
  addVersionWarnings,
  findLinkTarget,
  insertVersion,
  latestManifestField,
  linkInstruction,
  type StoryRef,
  signingKeysOf,
  storedBytesOf,
  type VersionRow,
  versionExists,
} from '../db/versions'
import { ApiError, formatBytes } from '../errors'
import {
  COVER_TYPES,
  coverKey,
  type FileStorage,
  PACKAGE_CONTENT_TYPE,
  packageKey,
} from '../storage/create-storage'
import type { ReceivedUpload } from './receive-upload'
import type { ValidationPool } from './validation-pool'
import type { ValidationOutcome } from './validation-types'

/** A diagnostic as the API returns it. */
export interface PublicDiagnostic {
  code: string
  severity: string
  message: string
  path: string | null
  /** The JSON pointer of the offending value inside `path` (`/description`), as `spkg validate` prints it. */
  field?: string
  line?: number
  column?: number
}

/** The 422 answer's body. */
export class PackageInvalidError extends Error {
  readonly statusCode = 422
  readonly code = 'PACKAGE_INVALID'
  constructor(
    readonly diagnostics: PublicDiagnostic[],
    /** The findings the validation left out of `diagnostics` (it keeps the 200 most severe). */
    readonly omitted?: { count: number; byCode: Record<string, number> },
  ) {
    super('The package has errors: see diagnostics')
  }
}

/**
 * Thrown when the request's client went away before its upload was committed (the route's `signal`): nothing is
 * stored, and nobody is there to answer (a retry must not find a version committed for nobody).
 */
export class UploadAbortedError extends Error {
  constructor() {
    super('The client closed the connection before the upload was committed')
    this.name = 'UploadAbortedError'
  }
}

const checkClient = (signal: AbortSignal | undefined) => {
  if (signal?.aborted) throw new UploadAbortedError()
}

/** What publishing needs from the app. */
export interface PublishContext {
  db: Db
  storage: FileStorage
  pool: ValidationPool
  quotaBytes: number
}

/** Where a version came from. */
export type VersionSource =
  | { kind: 'upload' }
  | { kind: 'repository'; url: string; ref: string | null; commit: string | null }

/** The 201 body. */
export interface PublishedVersion {
  slug: string
  version: string
  sha256: string
  size: number
  signature: 'verified' | 'unverified' | 'unsigned'
  warnings: PublicDiagnostic[]
}

export const toPublic = (d: Diagnostic | PublicDiagnostic): PublicDiagnostic => ({
  code: d.code,
  severity: d.severity,
  message: d.message,
  path: d.path ?? null,
  ...(typeof d.field === 'string' && { field: d.field }),
  ...(typeof d.line === 'number' && { line: d.line }),
  ...(typeof d.column === 'number' && { column: d.column }),
})

const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : null)

/**
 * Validates and stores `upload` as a new version of `story`; the caller discards the temporary file. `signal`: aborted
 * when the client is gone; checked before and after the validation and last under the files' lock, before the
 * insert ({@link UploadAbortedError}, no file and no row left).
 */
export async function publishPackage(
  ctx: PublishContext,
  story: StoryRef,
  upload: ReceivedUpload,
  uploaderSub: string,
  source: VersionSource = { kind: 'upload' },
  signal?: AbortSignal,
): Promise<PublishedVersion> {
  checkClient(signal)
  const trustedKeys = (await signingKeysOf(ctx.db, uploaderSub)).map((k) => k.publicKey)
  const outcome = await ctx.pool.validate({
    file: upload.path,
    trustedKeys,
    coverTypes: Object.keys(COVER_TYPES),
    user: uploaderSub,
  })
  checkClient(signal) // a job that waited for a worker may have lost its client meanwhile
  const refused = outcome.diagnostics.filter((d) => d.severity === 'fatal' || d.severity === 'error')
  if (!outcome.valid || refused.length > 0)
    throw new PackageInvalidError(outcome.diagnostics.map(toPublic), outcome.omitted)
  const manifest = outcome.manifest
  if (!manifest || outcome.layout !== 'packaged')
    throw new PackageInvalidError([
      {
        code: 'api/manifest-required',
        severity: 'error',
        message:
          'The platform publishes packaged archives only: a flat archive has no manifest, id or version',
        path: 'manifest.json',
      },
    ])
  const type = outcome.type ?? 'story'
  if (type !== story.type)
    throw new ApiError(
      409,
      'PACKAGE_TYPE_MISMATCH',
      `This is ${type === 'instruction' ? 'an instruction' : 'a story'} package; "${story.slug}" is a record of type ${story.type}`,
    )
  const version =
    typeof manifest.version === 'string' && manifest.version.trim() ? manifest.version.trim() : null
  if (!version)
    throw new PackageInvalidError([
      {
        code: 'api/version-required',
        severity: 'error',
        message: 'The manifest has no `version`: the platform keeps versions apart by it',
        path: 'manifest.json',
      },
    ])
  if (version.length > 100)
    throw new PackageInvalidError([
      {
        code: 'api/version-too-long',
        severity: 'error',
        message: '`version` is over 100 characters',
        path: 'manifest.json',
      },
    ])
  const packageId = String(manifest.id)
  if (story.packageId && story.packageId !== packageId) throw idMismatch(story.packageId)
  if (await versionExists(ctx.db, story.id, version))
    throw new ApiError(409, 'VERSION_EXISTS', `"${story.slug}" already has version ${version}`)

  // Refused before any file is written: a version over the quota never stores its bytes (the insert checks again
  // under the uploader's lock, which is what holds against concurrent uploads).
  const usedBytes = await storedBytesOf(ctx.db, uploaderSub)
  if (usedBytes + upload.size > ctx.quotaBytes) throw quotaExceeded(ctx.quotaBytes, usedBytes)

  // Files first (idempotent, content-addressed), then the record.
  const pkgKey = packageKey(upload.sha256)
  const cKey = outcome.cover ? coverKey(outcome.cover.sha256, outcome.cover.ext) : null
  const fileKeys = [pkgKey, ...(cKey ? [cKey] : [])]
  const warnings = outcome.diagnostics.filter((d) => d.severity === 'warning').map(toPublic)
  const stored = { ...manifest, integrity: outcome.integrity }
  const putPackage = () =>
    ctx.storage.putFile(pkgKey, upload.path, {
      sha256: upload.sha256,
      size: upload.size,
      contentType: PACKAGE_CONTENT_TYPE,
    })
  const cover = outcome.cover
  const putCover = async () => {
    if (cKey && cover)
      await ctx.storage.putBytes(cKey, cover.bytes, {
        sha256: cover.sha256,
        contentType: COVER_TYPES[cover.ext] ?? 'application/octet-stream',
      })
  }
  let result: Awaited<ReturnType<typeof insertVersion>>
  try {
    await putPackage()
    await putCover()
    // The record is inserted under the per-key lock deletions take (deleteFilesLocked): files are shared by content,
    // and deleting another version with the same bytes between the put above and this insert removes the file (no
    // record named it yet). Under the lock, a file gone meanwhile is stored again before the record commits.
    result = await withFileLock(ctx.db, fileKeys, async (tx) => {
      if (!(await ctx.storage.stat(pkgKey))) await putPackage()
      if (cKey && !(await ctx.storage.stat(cKey))) await putCover()
      checkClient(signal) // the last moment: the catch below removes the files
      // A savepoint inside the lock's transaction (one connection: PGlite has only one).
      return insertVersion(
        tx as unknown as Db,
        {
          storyId: story.id,
          version,
          packageId,
          type,
          sha256: upload.sha256,
          size: upload.size,
          signature: outcome.signature.status,
          signer: outcome.signature.fingerprint ?? null,
          manifest: stored,
          warnings,
          coverKey: cKey,
          title: str(manifest.title, 500),
          description: str(manifest.description, 10_000),
          language: str(manifest.language, 50),
          genre: str(manifest.genre, 100),
          tags: Array.isArray(manifest.tags) ? manifest.tags.filter((t) => typeof t === 'string') : [],
          series: str(manifest.series, 200),
          source: source.kind,
          sourceUrl: source.kind === 'repository' ? source.url : null,
          sourceRef: source.kind === 'repository' ? source.ref : null,
          sourceCommit: source.kind === 'repository' ? source.commit : null,
          uploaderSub,
        },
        ctx.quotaBytes,
      )
    })
  } catch (err) {
    // Any failure between the first put and the commit (a storage fault, a database error, a stack overflow
    // serialising the manifest): the files this request stored are removed now, under the per-key lock, unless
    // another version names them. Not left for the sweep: a client repeating a failing upload would fill the disk.
    await deleteFilesLocked(ctx.db, ctx.storage, fileKeys)
    throw err
  }
  if (!result.ok) {
    // The record was not written: the files may now be unreferenced (unless another version shares them).
    await deleteFilesLocked(ctx.db, ctx.storage, fileKeys)
    const r = result.refusal
    if (r.kind === 'id-mismatch') throw idMismatch(r.expected)
    if (r.kind === 'version-exists')
      throw new ApiError(409, 'VERSION_EXISTS', `"${story.slug}" already has version ${version}`)
    throw quotaExceeded(ctx.quotaBytes, r.used)
  }
  const linkWarnings = await checkInstructionLinks(ctx.db, story, result.row, outcome)
  await addVersionWarnings(ctx.db, result.row.id, linkWarnings)
  return {
    slug: story.slug,
    version,
    sha256: upload.sha256,
    size: upload.size,
    signature: outcome.signature.status,
    warnings: [...warnings, ...linkWarnings],
  }
}

const quotaExceeded = (quotaBytes: number, used: number) =>
  new ApiError(
    413,
    'STORAGE_QUOTA_EXCEEDED',
    `This upload would take your stored packages over the ${formatBytes(quotaBytes)} quota (${formatBytes(used)} used)`,
  )

const idMismatch = (expected: string) =>
  new ApiError(
    409,
    'PACKAGE_ID_MISMATCH',
    `The manifest id is not this story's package id (${expected}, fixed by its first version)`,
  )

const names = (r: { slug: string; packageId: string | null }) => [
  r.slug,
  ...(r.packageId ? [r.packageId] : []),
]

/**
 * Instruction links, both ways, between records of ONE owner (the story record's owner, whoever uploads): a story
 * naming an instruction of its owner links the record, with a warning when the instruction's latest version does not
 * name the story back; an instruction naming a story of its owner links it when the story's latest version names the
 * instruction. A name that resolves only to another creator's record gets a warning and no link (a story could
 * otherwise publish another creator's private instruction, or an instruction squat the slug a published story names);
 * a package id several of the owner's records hold gets a warning and no link.
 */
async function checkInstructionLinks(
  db: Db,
  story: StoryRef,
  row: VersionRow,
  outcome: ValidationOutcome,
): Promise<PublicDiagnostic[]> {
  const manifest = outcome.manifest ?? {}
  const warnings: PublicDiagnostic[] = []
  const self = { slug: story.slug, packageId: row.packageId }
  const warn = (code: string, message: string) =>
    warnings.push({ code, severity: 'warning', message, path: 'manifest.json' })
  if (story.type === 'story' && typeof manifest.instruction === 'string') {
    const name = manifest.instruction
    const target = await findLinkTarget(db, name, 'instruction', story.owner)
    if (target.kind === 'none') {
      warn('api/instruction-not-found', `No instruction package "${name}" on the platform yet`)
      return warnings
    }
    if (target.kind === 'other-owner') {
      warn(
        'api/instruction-other-owner',
        `The instruction "${name}" belongs to another creator: a story links only an instruction of its own owner (not linked)`,
      )
      return warnings
    }
    if (target.kind === 'ambiguous') {
      warn(
        'api/instruction-ambiguous',
        `Several of your instruction records hold the package id ${name} (${target.slugs.join(', ')}): name one by its slug (not linked)`,
      )
      return warnings
    }
    const back = await latestManifestField(db, target.id, 'stories')
    const namesBack = Array.isArray(back) && names(self).some((n) => back.includes(n))
    if (!namesBack)
      warn(
        'api/instruction-not-linked-back',
        `The instruction "${target.slug}" does not name this story in its \`stories\``,
      )
    await linkInstruction(db, story.id, target.id)
  }
  if (story.type === 'instruction' && Array.isArray(manifest.stories)) {
    for (const name of manifest.stories) {
      if (typeof name !== 'string') continue
      const target = await findLinkTarget(db, name, 'story', story.owner)
      if (target.kind === 'none') {
        warn('api/story-not-found', `No story "${name}" on the platform yet`)
        continue
      }
      if (target.kind === 'other-owner') {
        warn(
          'api/story-other-owner',
          `The story "${name}" belongs to another creator: an instruction links only stories of its own owner (not linked)`,
        )
        continue
      }
      if (target.kind === 'ambiguous') {
        warn(
          'api/story-ambiguous',
          `Several of your stories hold the package id ${name} (${target.slugs.join(', ')}): name one by its slug (not linked)`,
        )
        continue
      }
      // A story uploaded before its instruction: link it now if its latest version names this instruction.
      const named = await latestManifestField(db, target.id, 'instruction')
      if (typeof named === 'string' && names(self).includes(named))
        await linkInstruction(db, target.id, story.id)
      else warn('api/story-not-linked-back', `The story "${target.slug}" does not name this instruction`)
    }
  }
  return warnings
}
