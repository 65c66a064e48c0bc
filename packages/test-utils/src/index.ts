/**
 * @spkg/test-utils: fixture builders for spkg tests. Archives are built by code (with full
 * control for hostile cases) or by the real ZIP tools, never committed as opaque binaries.
 */
export type { BuildArchiveOptions, Content, EntrySpec } from './build-archive'
export { buildArchive, toEntrySpecs } from './build-archive'
export type { PackageSpec } from './build-package'
export { buildPackage, packageFiles, TEST_STORY_ID } from './build-package'
export { DeflateBits, manyHuffmanBlocks } from './deflate-blocks'
export { deflateBomb } from './deflate-bomb'
export { exampleAndReadme, runExampleFile } from './examples'
export { freePort, rawGet } from './loopback'
export type { ByteEdit } from './mutate'
export { mutate } from './mutate'
export type { SpecCspHosts } from './spec-csp'
export { EXAMPLE_CSP_HOSTS, specCsp } from './spec-csp'
export { importKeyWithoutEd25519, isEd25519Algorithm } from './webcrypto'
export { E1, E2, E3, E4, E5, E6_MODULE, E6_PART, E8 } from './worked-examples'
export type { ZipTool } from './zip-with-tool'
export { hasTool, zipWithTool } from './zip-with-tool'
