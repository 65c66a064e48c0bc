/**
 * The bundle bench's weighing on the real player (`app/`): the decryption of `.spkg.enc` containers
 * lands in lazy chunks of both builds, which the initial load leaves out, and `@noble/ed25519`, the
 * opt-in Ed25519 fallback of `@spkg/integrity` (`@spkg/reader/ed25519-noble`), which this player
 * does not ask for, is in no file at all.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { esbuildWeight, viteWeight } from './weigh.ts'

const app = join(import.meta.dirname, 'app')
const noble = /@noble[\\/]ed25519/

describe.each([
  ['esbuild', esbuildWeight],
  ['Vite', viteWeight],
])('%s', (_, weight) => {
  it('keeps the container decryption out of the initial load, and @noble/ed25519 out of every file', async () => {
    const w = await weight(app)
    expect(w.lazyChunks).toBeGreaterThanOrEqual(1)
    expect(w.modules.filter((m) => noble.test(m))).toEqual([])
    expect(w.lazyModules.filter((m) => /encrypt[\\/](container|decrypt-package)\.ts$/.test(m))).toHaveLength(
      2,
    )
    // the container decryption, 2.8 KB minified with Vite, is all the lazy code left
    expect(w.initialMinified).toBeLessThan(w.minified - 2000)
    expect(w.initialGzip).toBeLessThan(w.gzip)
    // the player itself is in the initial load; of the reader, only the code for encrypted
    // packages is lazy (open/encryption.ts, and with esbuild, which makes a chunk of every
    // import() it finds, the lazy modules of an update and of a progressive open)
    const encryption =
      /reader[\\/]src[\\/](open[\\/]encryption|remote[\\/]decrypted-source|update[\\/]encrypted-package)\.ts$/
    expect(w.lazyModules.some((m) => /story[\\/]src|reader[\\/]src/.test(m) && !encryption.test(m))).toBe(
      false,
    )
  }, 60_000)
})

it('Vite leaves out what only an update or a progressive open of an encrypted package needs', async () => {
  // Rolldown keeps what any import() of a module takes from it, even where that import() is
  // tree-shaken: one lazy module for the three uses put the random-access reader and the
  // progressive plaintext source in every player's bundle (2.4 KB minified).
  const w = await viteWeight(app)
  expect(w.lazyModules.some((m) => /encrypt[\\/]decrypt-package\.ts$/.test(m))).toBe(true)
  expect(
    w.modules.filter((m) => /decrypted-source|open-encrypted-package|update[\\/]encrypted-package/.test(m)),
  ).toEqual([])
}, 60_000)
