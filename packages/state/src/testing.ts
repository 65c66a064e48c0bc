/**
 * @spkg/state/testing: the storage-driver contract, for anyone writing a driver (such as the
 * `cloud` driver of `@spkg/client`). Framework-free: wrap each case in your runner's `it`.
 *
 * @example
 * import { DRIVER_CASES } from '@spkg/state/testing'
 * for (const c of DRIVER_CASES) it(c.name, () => c.run(createMyDriver()))
 */
export type { DriverCase } from './contract/driver-cases'
export { DRIVER_CASES, runDriverCases } from './contract/driver-cases'
