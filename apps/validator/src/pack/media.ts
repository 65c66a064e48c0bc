/**
 * Which files `spkg pack` stores uncompressed: formats that are already compressed gain nothing
 * from deflate and cost CPU to inflate (the SPEC's rule: deflate, but JPEG, OGG... stored).
 */

/** Extensions (lowercase, without the dot) of already-compressed media, stored without deflate. */
export const COMPRESSED_MEDIA_EXTENSIONS: ReadonlySet<string> = new Set([
  'jpg',
  'jpeg',
  'png',
  'webp',
  'gif',
  'avif',
  'ogg',
  'opus',
  'mp3',
  'm4a',
  'mp4',
  'webm',
  'woff',
  'woff2',
  'zip',
])

/** True when `path` names an already-compressed media file (by extension, case-insensitive). */
export function isCompressedMedia(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  return dot > 0 && COMPRESSED_MEDIA_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())
}
