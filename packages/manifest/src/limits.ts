/**
 * Package limits of the SPEC (Limits: Package), enforced by every reader on what an archive
 * really contains, never on what its headers declare.
 */
export const LIMITS = Object.freeze({
  /** Total uncompressed bytes of all entries: "50 MB", read as 50 MiB (the binary reading the API's 1 MB body limit uses too). */
  maxUncompressedBytes: 52_428_800,
  /** Central-directory records, directory entries included (what any ZIP tool reports). */
  maxEntries: 500,
  /** Progressive loading: parts not in `preload` download once the reader is this far through the current part. */
  progressivePrefetchAt: 0.8,
  /** API request bodies (JSON and URL-encoded): 1 MB read as 1 MiB. */
  maxRequestBodyBytes: 1_048_576,
  /** API story `content` field, in characters. */
  maxStoryContentChars: 500_000,
})

export type Limits = typeof LIMITS
