/**
 * ACCOUNT's hooks (first version by CORE; ACCOUNT owns this file): the header's account area and the cloud storage.
 */
import type { StateDriver } from '@spkg/state'

/** Mounts sign-in / sign-out and the offline banner into the header. */
export function mountAccount(_header: HTMLElement): void {}

/** The `cloud` reading-state driver when signed in, else null (then progress stays on the device). */
export function cloudDriver(): StateDriver | null {
  return null
}
