/**
 * mulberry32, bit for bit as STORY-LANGUAGE.md section 7 specifies: a uint32 state, one draw per
 * call. The state is kept in a plain object so a run can save and restore it.
 */

/** The PRNG state of a run. */
export interface Rng {
  seed: number
  state: number
}

/** Creates a generator whose state starts equal to `seed` (a uint32). */
export function createRng(seed: number): Rng {
  return { seed: seed >>> 0, state: seed >>> 0 }
}

/**
 * One mulberry32 draw: advances `rng.state` and returns a uint32.
 *
 * @example
 * const rng = createRng(42)
 * drawUint32(rng) // 2581720956
 */
export function drawUint32(rng: Rng): number {
  const s = (rng.state + 0x6d2b79f5) >>> 0
  rng.state = s
  let t = s
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return (t ^ (t >>> 14)) >>> 0
}

/** A uniform integer in `a..b` from one draw (`a + floor(out*(b-a+1)/2^32)`); the caller checks the range. */
export function drawInt(rng: Rng, a: number, b: number): number {
  return a + Math.floor((drawUint32(rng) * (b - a + 1)) / 4294967296)
}

/** 32 random bits from the platform, for a run with no seed. */
export function randomSeed(): number {
  const buf = new Uint32Array(1)
  globalThis.crypto.getRandomValues(buf)
  return buf[0]!
}
