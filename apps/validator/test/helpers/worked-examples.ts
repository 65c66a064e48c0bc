/**
 * The worked examples of STORY-LANGUAGE.md section 11 as story folders (file path → text), for the
 * `spkg play` tests. Flat examples are single `.sty` files; E1 and E5 are packaged. The sources
 * themselves are the shared copy in `@spkg/test-utils`.
 */
import { E1 as E1_SOURCE, E5 as E5_PARTS, E6_MODULE, E6_PART } from '@spkg/test-utils'

export { E2, E3, E4, E8 } from '@spkg/test-utils'

/** A minimal valid manifest for the packaged examples. */
export const manifest = (parts: string[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: '6f1c2a9e-0b7d-4c1e-9a53-2d8e4f6b7a10', version: '1.0.0', parts, ...extra })

/** E1: blocks, tags, defaults, session (a packaged archive whose one part is `story/inn.sty`). */
export const E1: Record<string, string> = {
  'manifest.json': manifest(['story/inn.sty']),
  'session.json': '{"name":"mira","hard":true}',
  'assets/inn.webp': 'RIFF....WEBP',
  'story/inn.sty': E1_SOURCE,
}

/** E5: gate, links, a scene anchor (three packaged parts). */
export const E5: Record<string, string> = {
  'manifest.json': manifest(Object.keys(E5_PARTS)),
  ...E5_PARTS,
}

/** E6: a module (`combat.xty` used by `duel.sty`, flat). */
export const E6: Record<string, string> = {
  'combat.xty': E6_MODULE,
  'duel.sty': E6_PART,
}
