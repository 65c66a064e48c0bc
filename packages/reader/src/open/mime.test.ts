import { describe, expect, it } from 'vitest'
import { mimeTypeOf } from './mime'

describe('mimeTypeOf', () => {
  it.each([
    ['assets/cover.webp', 'image/webp'],
    ['assets/COVER.JPG', 'image/jpeg'],
    ['assets/theme.ogg', 'audio/ogg'],
    ['assets/intro.mp4', 'video/mp4'],
    ['assets/font.woff2', 'font/woff2'],
    ['assets/map.svg', 'image/svg+xml'],
  ])('%s is %s', (path, type) => {
    expect(mimeTypeOf(path)).toBe(type)
  })

  it.each([
    'assets/page.html',
    'assets/x.htm',
    'assets/app.js',
    'assets/data.xml',
    'assets/noext',
    'assets.d/file',
  ])('never gives active content a type a browser would run: %s', (path) => {
    expect(mimeTypeOf(path)).toBe('application/octet-stream')
  })
})
