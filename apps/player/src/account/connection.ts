/**
 * The offline banner and the reconnect indicator (SPEC, Client behaviour 2 and 3): the client's `offline` and
 * `reconnected` events drive them; while the banner shows, the client holds back its network-error notices.
 * Both are live regions (`role="status"`), present from the start so that screen readers announce each change.
 */
import { h } from '../lib/dom'
import type { Account } from './account'

/** How long the reconnect indicator stays after the queue was sent, ms. */
export const RECONNECTED_VISIBLE_MS = 6_000

/** The banner text: offline (the browser says so) or the server unreachable. */
export function offlineText(browserOnline: boolean, signedIn: boolean): string {
  const where = signedIn
    ? 'your progress is kept on this device and synced when the connection returns.'
    : 'your progress is saved on this device.'
  return browserOnline
    ? `The server cannot be reached. You can keep reading: ${where}`
    : `You are offline. You can keep reading: ${where}`
}

/** The indicator text once the saves made offline were sent. */
export function reconnectedText(sent: number, pending: number): string {
  if (pending > 0)
    return `Back online. ${pending} saved ${pending === 1 ? 'step is' : 'steps are'} still waiting.`
  if (sent === 0) return 'Back online.'
  return `Back online. Progress synced (${sent} ${sent === 1 ? 'save' : 'saves'}).`
}

/** Mounts the banner and the indicator into `container`; returns the unmount function. */
export function mountConnectionStatus(container: HTMLElement, account: Account): () => void {
  const { client } = account
  const banner = h('div', { class: 'account-offline', role: 'status', 'aria-live': 'polite' })
  const indicator = h('div', {
    class: 'account-reconnected',
    role: 'status',
    'aria-live': 'polite',
  })
  container.append(banner, indicator)
  // Empty regions take no room (account.css) but stay in the accessibility tree, so their changes are announced.
  let offlineShown = false
  let hideTimer: ReturnType<typeof setTimeout> | undefined
  const browserOnline = () => (globalThis.navigator?.onLine ?? true) !== false
  const signedIn = () => account.state().status === 'signed-in'

  const showOffline = () => {
    clearTimeout(hideTimer)
    indicator.textContent = ''
    banner.textContent = offlineText(browserOnline(), signedIn())
    offlineShown = true
    client.setOfflineBannerShown(true)
  }
  const showReconnected = async () => {
    banner.textContent = ''
    offlineShown = false
    client.setOfflineBannerShown(false)
    indicator.textContent = 'Back online. Syncing…'
    clearTimeout(hideTimer)
    const report = await client.offline.replay().catch(() => undefined)
    if (offlineShown) return
    indicator.textContent = reconnectedText(report?.sent ?? 0, report?.pending ?? 0)
    hideTimer = setTimeout(() => {
      indicator.textContent = ''
    }, RECONNECTED_VISIBLE_MS)
  }
  const onOffline = () => showOffline()
  const onReconnected = () => void showReconnected()
  // The browser's own events too: the client notices `online` only after `offline`, and a page that starts offline.
  const onBrowserOffline = () => {
    if (!offlineShown) showOffline()
  }
  client.events.addEventListener('offline', onOffline)
  client.events.addEventListener('reconnected', onReconnected)
  globalThis.addEventListener?.('offline', onBrowserOffline)
  if (!client.offline.online || !browserOnline()) showOffline()
  return () => {
    clearTimeout(hideTimer)
    client.events.removeEventListener('offline', onOffline)
    client.events.removeEventListener('reconnected', onReconnected)
    globalThis.removeEventListener?.('offline', onBrowserOffline)
    client.setOfflineBannerShown(false)
    banner.remove()
    indicator.remove()
  }
}
