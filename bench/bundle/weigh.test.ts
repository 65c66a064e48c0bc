/**
 * The bundle bench's weighing on the real player (`app/`): `@noble/ed25519`, the Ed25519 fallback of
 * `@spkg/integrity`, and the decryption of `.spkg.enc` containers land in lazy chunks of both
 * builds, which the initial load leaves out.
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
  it('keeps @noble/ed25519 and the container decryption out of the initial load', async () => {
    const w = await weight(app)
    expect(w.lazyChunks).toBeGreaterThanOrEqual(1)
    expect(w.lazyModules.filter((m) => noble.test(m))).toHaveLength(1)
    expect(
      w.lazyModules.filter((m) =>
        /encrypt[\\/](container|decrypt-package|open-encrypted-package)\.ts$/.test(m),
      ),
    ).toHaveLength(3)
    expect(w.initialMinified).toBeLessThan(w.minified - 4000)
    expect(w.initialGzip).toBeLessThan(w.gzip)
    // the player itself is in the initial load; of the reader, only the code for encrypted
    // packages is lazy (open/encryption.ts and what it loads)
    const encryption = /reader[\\/]src[\\/](open[\\/]encryption|remote[\\/]decrypted-source)\.ts$/
    expect(w.lazyModules.filter((m) => encryption.test(m)).length).toBeGreaterThanOrEqual(1)
    expect(w.lazyModules.some((m) => /story[\\/]src|reader[\\/]src/.test(m) && !encryption.test(m))).toBe(
      false,
    )
  }, 60_000)
})
