/**
 * MIME types for media blob URLs, by file extension. Active content (HTML, XML, JavaScript)
 * is never given a type a browser would run: it becomes `application/octet-stream`.
 */
const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  otf: 'font/otf',
  json: 'application/json',
  txt: 'text/plain;charset=utf-8',
  vtt: 'text/vtt;charset=utf-8',
  sty: 'text/plain;charset=utf-8',
  xty: 'text/plain;charset=utf-8',
  pdf: 'application/pdf',
}

/**
 * The MIME type for an archive path.
 *
 * @example
 * mimeTypeOf('assets/cover.webp') // 'image/webp'
 * mimeTypeOf('assets/page.html')  // 'application/octet-stream'
 */
export function mimeTypeOf(path: string): string {
  const dot = path.lastIndexOf('.')
  const ext = dot < 0 || dot < path.lastIndexOf('/') ? '' : path.slice(dot + 1).toLowerCase()
  return TYPES[ext] ?? 'application/octet-stream'
}
