/**
 * The notices of the API client's events under the header: errors in a `role="alert"` region, the rest in a
 * `role="status"` one. One notice per kind (a new one replaces the shown one), each with **Dismiss**; they also
 * leave by themselves after a while.
 */
import type { ClientEventDetail, ClientEventType } from '@spkg/client'
import { h } from '../lib/dom'
import type { Account } from './account'
import { type Notice, noticeFor } from './notices'

/** The events that give notices. */
export const NOTICE_EVENTS: readonly ClientEventType[] = [
  'auth-required',
  'forbidden',
  'rate-limited',
  'network-error',
  'server-error',
  'conflict',
]

/** How long a notice stays, ms. */
export const NOTICE_VISIBLE_MS = 12_000

/** Mounts the notice regions into `container`; returns the unmount function. */
export function mountNotices(container: HTMLElement, account: Account): () => void {
  const alerts = h('div', { class: 'account-notices', role: 'alert' })
  const statuses = h('div', { class: 'account-notices', role: 'status', 'aria-live': 'polite' })
  container.append(alerts, statuses)
  const shown = new Map<ClientEventType, { el: HTMLElement; timer: ReturnType<typeof setTimeout> }>()
  const dismiss = (kind: ClientEventType) => {
    const s = shown.get(kind)
    if (!s) return
    clearTimeout(s.timer)
    s.el.remove()
    shown.delete(kind)
  }
  const show = (notice: Notice) => {
    dismiss(notice.kind)
    const close = h('button', { type: 'button', class: 'account-notice-dismiss' }, 'Dismiss')
    close.addEventListener('click', () => dismiss(notice.kind))
    const actions: Node[] = []
    if (notice.action === 'sign-in') {
      const signIn = h('button', { type: 'button' }, 'Sign in')
      signIn.addEventListener('click', () => void account.signIn())
      actions.push(signIn)
    }
    const el = h(
      'p',
      { class: `account-notice account-notice-${notice.level}`, 'data-kind': notice.kind },
      h('span', {}, notice.text),
      ...actions,
      close,
    )
    ;(notice.level === 'error' ? alerts : statuses).append(el)
    shown.set(notice.kind, { el, timer: setTimeout(() => dismiss(notice.kind), NOTICE_VISIBLE_MS) })
  }
  const listeners = NOTICE_EVENTS.map((type) => {
    const listener = (e: Event) => {
      // A signed-out reader has no session to end (an old queued save refused): nothing to say.
      if (type === 'auth-required' && account.state().status !== 'signed-in') return
      // A request that failed as the browser went offline, just before the banner showed: the banner says it all.
      if (type === 'network-error' && globalThis.navigator?.onLine === false) return
      const notice = noticeFor(type, (e as CustomEvent<ClientEventDetail>).detail)
      if (notice) show(notice)
    }
    account.client.events.addEventListener(type, listener)
    return [type, listener] as const
  })
  return () => {
    for (const [type, listener] of listeners) account.client.events.removeEventListener(type, listener)
    for (const kind of [...shown.keys()]) dismiss(kind)
    alerts.remove()
    statuses.remove()
  }
}
