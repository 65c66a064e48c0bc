/**
 * The development seed (issues 18 and 20): the repository's example stories (`examples/<folder>/`) are packed with
 * `packFolder` (what `spkg pack` writes), uploaded through the same `publishPackage` as
 * `POST /api/stories/:slug/versions`, and published, so that a newcomer's first `pnpm start` shows a catalog with
 * stories, covers and downloadable packages.
 *
 * - Instruction packages (`"type": "instruction"`) are uploaded first and never published: `publishPackage` records
 *   the link both ways when their story comes next (the story names the instruction, the instruction names the
 *   story back), and the catalog then leads from the story to the instruction's package.
 * - A flat example (no `manifest.json`) is skipped: the platform publishes packaged archives only.
 * - Idempotent per example: an example whose record already has the version it would upload is left alone, so a
 *   second start does nothing and an example added to the repository is seeded on the next start. A record of
 *   that slug owned by anyone but the seed is never touched.
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type PackedFolder, packFolder } from '@spkg/validator/validate'
import { eq } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { FastifyInstance } from 'fastify'
import { stories } from '../db/schema'
import { insertStory } from '../db/stories'
import { findStoryForPublishing, findVersion, setPublishedVersion, versionExists } from '../db/versions'
import { publishPackage } from './publish-package'

/** The repository's examples folder. */
export const EXAMPLES_DIR = fileURLToPath(new URL('../../../../examples', import.meta.url))

/** The owner of seeded stories. */
export const SEED_OWNER = 'seed'

/** Result of {@link seedExamples}: slugs, in the order they were handled. */
export interface SeedResult {
  /** Examples uploaded by this call: stories (published) and instructions (stored unlisted), in upload order. */
  seeded: string[]
  /** Those of `seeded` that are instructions: never listed, reached from the story that links them. */
  instructions: string[]
  /** Examples whose version was already there. */
  present: string[]
  /** Examples left out on purpose, with why (a flat story; a slug taken by someone else's record). */
  skipped: Array<{ folder: string; reason: string }>
  /** Examples that could not be seeded, with why. */
  failed: Array<{ folder: string; reason: string }>
}

const slugOf = (folder: string) =>
  folder
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')

interface Example {
  folder: string
  slug: string
  packed: PackedFolder
  manifest: {
    title?: string
    author?: Array<{ name: string }>
    genre?: string
    type?: string
    version?: string
  }
}

const versionOf = (e: Example) => (typeof e.manifest.version === 'string' ? e.manifest.version.trim() : '')

/** Seeds the example stories (see the module comment); never throws for one bad example. */
export async function seedExamples(app: FastifyInstance, dir: string = EXAMPLES_DIR): Promise<SeedResult> {
  const result: SeedResult = { seeded: [], instructions: [], present: [], skipped: [], failed: [] }
  const folders = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
  const examples: Example[] = []
  for (const folder of folders) {
    try {
      const packed = await packFolder(join(dir, folder), folder)
      if (packed.bytes && !packed.files.has('manifest.json')) {
        result.skipped.push({ folder, reason: 'a flat story: the platform publishes packaged archives only' })
        continue
      }
      if (!packed.bytes || !packed.manifest) {
        const why = packed.diagnostics.find((d) => d.severity === 'fatal' || d.severity === 'error')
        result.failed.push({ folder, reason: `spkg pack refused the folder${why ? `: ${why.message}` : ''}` })
        continue
      }
      examples.push({
        folder,
        slug: slugOf(folder),
        packed,
        manifest: packed.manifest as Example['manifest'],
      })
    } catch (err) {
      result.failed.push({ folder, reason: err instanceof Error ? err.message : String(err) })
    }
  }
  // Instructions first: each story then finds its instruction, which already names it back.
  const rank = (e: Example) => (e.manifest.type === 'instruction' ? 0 : 1)
  examples.sort((a, b) => rank(a) - rank(b))
  for (const e of examples) {
    try {
      await seedOne(app, e, result)
    } catch (err) {
      result.failed.push({ folder: e.folder, reason: err instanceof Error ? err.message : String(err) })
    }
  }
  // Failures are the caller's to log (server.ts warns for each).
  for (const s of result.skipped) app.log.info(s, 'example not seeded')
  if (result.present.length > 0)
    app.log.info({ present: result.present }, 'example stories already seeded, left as they are')
  return result
}

async function seedOne(app: FastifyInstance, e: Example, result: SeedResult): Promise<void> {
  const db = app.db
  const { storage, pool, settings } = app.publishing
  const { folder, slug, manifest: m } = e
  const type = m.type === 'instruction' ? 'instruction' : 'story'
  let story = await findStoryForPublishing(db, slug)
  if (story && story.owner !== SEED_OWNER) {
    result.skipped.push({ folder, reason: `the slug "${slug}" belongs to another record` })
    return
  }
  if (story && (await versionExists(db, story.id, versionOf(e)))) {
    result.present.push(slug)
    return
  }
  if (!story) {
    await insertStory(db, {
      slug,
      title: (m.title ?? folder).slice(0, 200),
      author: (m.author?.[0]?.name ?? 'Unknown').slice(0, 100),
      genre: (m.genre ?? 'other').slice(0, 50),
      content: '',
      type,
      ownerSub: SEED_OWNER,
      instructionId: null,
    })
    story = await findStoryForPublishing(db, slug)
    if (!story) throw new Error(`the record "${slug}" was not created`)
  }
  const bytes = e.packed.bytes as Uint8Array
  await mkdir(settings.tmpDir, { recursive: true })
  const path = join(settings.tmpDir, `seed-${slug}.spkg`)
  await writeFile(path, bytes)
  try {
    const upload = {
      path,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: (await stat(path)).size,
      discard: () => rm(path, { force: true }),
    }
    const published = await publishPackage(
      { db, storage, pool, quotaBytes: Number.MAX_SAFE_INTEGER },
      story,
      upload,
      SEED_OWNER,
    )
    const version = await findVersion(db, story.id, published.version)
    if (story.type === 'story' && version) await setPublishedVersion(db, story.id, version.id)
    result.seeded.push(slug)
    if (story.type === 'instruction') result.instructions.push(slug)
    const instruction = story.type === 'story' ? await linkedInstructionSlug(app, story.id) : null
    app.log.info(
      {
        example: folder,
        slug,
        type: story.type,
        version: published.version,
        ...(instruction && { instruction }),
        ...(published.warnings.length > 0 && { warnings: published.warnings.map((w) => w.code) }),
      },
      story.type === 'story' ? 'published an example story' : 'stored an example instruction (unlisted)',
    )
  } finally {
    await rm(path, { force: true })
  }
}

/** The slug of the instruction record a story links, if any. */
async function linkedInstructionSlug(app: FastifyInstance, storyId: string): Promise<string | null> {
  const instr = alias(stories, 'instr')
  const [row] = await app.db
    .select({ slug: instr.slug })
    .from(stories)
    .innerJoin(instr, eq(stories.instructionId, instr.id))
    .where(eq(stories.id, storyId))
    .limit(1)
  return row?.slug ?? null
}
