/**
 * ACCOUNT's hooks (src/account; docs/account.md): the account area of the header, the `cloud` storage while signed
 * in, and the `#/progress` route. One account per page: one `@spkg/client` for the API at the player's origin.
 */
import type { StateDriver } from '@spkg/state'
import { API_BASE } from '../lib/config'
import { registerRoute } from '../router'
import { type Account, createAccount } from './account'
import './account.css'
import { mountConnectionStatus } from './connection'
import { mountAccountControls } from './header'
import { mountNotices } from './notice-area'
import { renderProgress } from './progress-view'

let account: Account | undefined

/** The page's account, created (and started: callback, session from other tabs) on first use. */
export function getAccount(): Account {
  account ??= createAccount({
    origin: API_BASE || location.origin,
    env: {
      VITE_SPKG_OIDC_ISSUER: import.meta.env.VITE_SPKG_OIDC_ISSUER,
      VITE_SPKG_OIDC_CLIENT_ID: import.meta.env.VITE_SPKG_OIDC_CLIENT_ID,
      VITE_SPKG_OIDC_RESOURCE: import.meta.env.VITE_SPKG_OIDC_RESOURCE,
    },
  })
  return account
}

/**
 * Mounts the account controls (sign in, the signed-in reader, sign out), and under the header the offline banner,
 * the reconnect indicator and the notices of the API client. Registers `#/progress`. Returns the unmount function.
 */
export function mountAccount(header: HTMLElement): () => void {
  const a = getAccount()
  const area = document.createElement('div')
  area.className = 'account-status'
  header.after(area)
  const unmount = [mountAccountControls(header, a), mountConnectionStatus(area, a), mountNotices(area, a)]
  return () => {
    for (const u of unmount) u()
    area.remove()
  }
}

/** The `cloud` reading-state driver when signed in, else null (then progress stays on the device). */
export function cloudDriver(): StateDriver | null {
  return getAccount().cloudDriver()
}

registerRoute('/progress', (outlet) => renderProgress(outlet, getAccount()))
