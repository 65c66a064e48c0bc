/**
 * The driver contract as a Vitest suite (STYLE.md section 6): `testStateDriver('memory', make)`.
 */
import { describe, it } from 'vitest'
import { DRIVER_CASES } from '../../src/testing'
import type { StateDriver } from '../../src/types'

/** Runs the whole driver contract against fresh drivers from `makeDriver`. */
export function testStateDriver(name: string, makeDriver: () => StateDriver | Promise<StateDriver>): void {
  describe(`${name} driver contract`, () => {
    for (const c of DRIVER_CASES) {
      it(c.name, async () => {
        await c.run(await makeDriver())
      })
    }
  })
}
