/** What extracting an entry needs of the platform. */
import type { Inflater } from './inflate-types'

/** An inflater and a CRC-32: the bounded inflaters here, or a platform's own (node:zlib). */
export interface ZipBackend {
  readonly inflater: Inflater
  crc32(data: Uint8Array): number
}
