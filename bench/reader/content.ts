/**
 * Deterministic content for the benches: incompressible bytes like encoded media, and prose that
 * deflates like story text. Its own module, so that importing it builds no package.
 */
/** `n` pseudo-random bytes (xorshift32 from `seed`): incompressible, like encoded media. */
export function noise(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n)
  let x = seed | 1
  for (let i = 0; i < n; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    b[i] = x & 255
  }
  return b
}

const WORDS = 'the inn door creaks open and a cold wind follows you inside where the fire burns low'.split(
  ' ',
)
/** `n` characters of pseudo-random prose from a small vocabulary (deflates like story text). */
export function prose(n: number, seed: number): string {
  let s = ''
  let x = seed | 1
  while (s.length < n) {
    x = (x * 1103515245 + 12345) & 0x7fffffff
    s += `${WORDS[x % WORDS.length]}${x % 11 === 0 ? '.\n' : ' '}`
  }
  return s.slice(0, n)
}
