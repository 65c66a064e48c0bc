/**
 * The per-user quota holds under concurrent uploads to DIFFERENT stories: the story row lock
 * alone let two inserts sum the same committed rows and both pass (321,803 of 300,000 bytes). Meaningful on
 * PostgreSQL (`DATABASE_URL`: a pool of 10 connections, inserts really concurrent); PGlite has one connection.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { stories } from '../../src/db/schema'
import { insertVersion } from '../../src/db/versions'
import { createTestDb, type TestDb } from '../helpers/db'

let tdb: TestDb
beforeAll(async () => {
  tdb = await createTestDb({ max: 10 })
}, 60_000)
afterAll(async () => tdb?.dispose())

const ROUNDS = 8
const UPLOADS = 6
const SIZE = 100_000
const QUOTA = 300_000 // room for exactly 3 of the 6

it(`lets exactly the uploads within the quota commit, every round (${ROUNDS} rounds of ${UPLOADS} uploads to ${UPLOADS} stories)`, async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const owner = `racer-${round}-${randomBytes(3).toString('hex')}`
    const made = await tdb.db
      .insert(stories)
      .values(
        Array.from({ length: UPLOADS }, (_, i) => ({
          slug: `${owner}-story-${i}`,
          title: 'Race',
          author: 'R',
          genre: 'g',
          content: '',
          ownerSub: owner,
        })),
      )
      .returning({ id: stories.id })
    const results = await Promise.all(
      made.map((s, i) =>
        insertVersion(
          tdb.db,
          {
            storyId: s.id,
            version: '1.0.0',
            packageId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            sha256: randomBytes(32).toString('hex'),
            size: SIZE,
            signature: 'unsigned',
            manifest: {},
            uploaderSub: owner,
          },
          QUOTA,
        ),
      ),
    )
    const refusals = results.flatMap((r) => (r.ok ? [] : [r.refusal.kind]))
    expect({ round, committed: results.filter((r) => r.ok).length, refusals }).toEqual({
      round,
      committed: 3,
      refusals: ['quota', 'quota', 'quota'],
    })
  }
})
