/**
 * The development seed (issue 18): on a start with an empty catalog, the repository's example stories
 * (`examples/<folder>/`) are packed with `packFolder` (what `spkg pack` writes), uploaded through the same
 * `publishPackage` as `POST /api/stories/:slug/versions`, and published, so that a newcomer's first `pnpm start`
 * shows a catalog with stories, covers and downloadable packages. Runs once: any existing story record skips it.
 */
import { createHash } from 'node:crypto'
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packFolder } from '@spkg/validator/validate'
import { count } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { stories } from '../db/schema'
import { insertStory } from '../db/stories'
import { publishPackage } from './publish-package'
import { findStoryForPublishing, findVersion, setPublishedVersion } from './versions-db'

/** The repository's examples folder. */
export const EXAMPLES_DIR = fileURLToPath(new URL('../../../../examples', import.meta.url))

/** The owner of seeded stories. */
export const SEED_OWNER = 'seed'

/** Result of {@link seedExamples}. */
export interface SeedResult {
  seeded: string[]
  skipped: 'not-empty' | null
  failed: Array<{ folder: string; reason: string }>
}

const slugOf = (folder: string) =>
  folder
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')

/** Seeds an empty database with the example stories; a database with any story record is left alone. */
export async function seedExamples(app: FastifyInstance, dir: string = EXAMPLES_DIR): Promise<SeedResult> {
  const db = app.db
  const [row] = await db.select({ n: count() }).from(stories)
  if (Number(row?.n ?? 0) > 0) return { seeded: [], skipped: 'not-empty', failed: [] }
  const { storage, pool, settings } = app.publishing
  const result: SeedResult = { seeded: [], skipped: null, failed: [] }
  const folders = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
  for (const folder of folders.sort()) {
    const slug = slugOf(folder)
    const packed = await packFolder(join(dir, folder), folder)
    if (!packed.bytes || !packed.manifest) {
      result.failed.push({ folder, reason: 'spkg pack refused the folder' })
      continue
    }
    const m = packed.manifest as {
      title?: string
      author?: Array<{ name: string }>
      genre?: string
      type?: string
    }
    await insertStory(db, {
      slug,
      title: (m.title ?? folder).slice(0, 200),
      author: (m.author?.[0]?.name ?? 'Unknown').slice(0, 100),
      genre: (m.genre ?? 'other').slice(0, 50),
      content: '',
      type: m.type === 'instruction' ? 'instruction' : 'story',
      ownerSub: SEED_OWNER,
      instructionId: null,
    })
    await mkdir(settings.tmpDir, { recursive: true })
    const path = join(settings.tmpDir, `seed-${slug}.spkg`)
    await writeFile(path, packed.bytes)
    try {
      const story = await findStoryForPublishing(db, slug)
      if (!story) continue
      const upload = {
        path,
        sha256: createHash('sha256').update(packed.bytes).digest('hex'),
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
    } catch (err) {
      result.failed.push({ folder, reason: err instanceof Error ? err.message : String(err) })
    } finally {
      await rm(path, { force: true })
    }
  }
  return result
}
