/**
 * `#/progress`: the stories in progress, each resuming where it stopped (CORE's `#/story/<slug>/play` resumes).
 */
import { h, replace } from '../lib/dom'
import type { Account } from './account'
import { loadProgress } from './progress-data'
import type { ProgressEntry } from './progress-model'

const dateText = (iso: string | undefined) => {
  if (!iso) return undefined
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? undefined : d.toLocaleString()
}

function entryItem(e: ProgressEntry): HTMLElement {
  const when = dateText(e.savedAt)
  const where = e.where === 'account' ? 'Saved in your account' : 'Saved on this device'
  return h(
    'li',
    { 'data-story-id': e.key },
    h('span', { class: 'progress-title' }, e.resume ? h('a', { href: e.resume }, e.title) : e.title),
    h(
      'span',
      { class: 'progress-where' },
      e.waiting ? 'Saved offline, waiting to sync' : when ? `${where}, ${when}` : where,
    ),
    e.resume
      ? h('a', { href: e.resume, class: 'button', 'aria-label': `Continue “${e.title}”` }, 'Continue')
      : h('span', { class: 'progress-where' }, 'Open it again from where you found it to continue.'),
  )
}

/** Renders the list into `outlet`; returns the clean-up. */
export function renderProgress(outlet: HTMLElement, account: Account): () => void {
  const abort = new AbortController()
  const heading = h('h1', { id: 'progress-title', tabindex: '-1' }, 'Stories in progress')
  const body = h('div', { 'aria-live': 'polite' }, h('p', { class: 'loading', role: 'status' }, 'Loading…'))
  replace(outlet, h('section', { 'aria-labelledby': 'progress-title' }, heading, body))
  heading.focus()
  const load = async () => {
    await account.ready
    if (abort.signal.aborted) return
    try {
      const { entries, where, offline } = await loadProgress(account, abort.signal)
      if (abort.signal.aborted) return
      const intro =
        where === 'account'
          ? offline
            ? 'You are offline: these are the stories with saves waiting to sync. The rest of your list shows when the connection returns.'
            : 'The stories saved in your account, on every device you sign in on.'
          : account.state().status === 'unavailable'
            ? 'The stories saved on this device.'
            : 'The stories saved on this device. Sign in to keep your progress in your account.'
      replace(
        body,
        h('p', null, intro),
        entries.length === 0
          ? h('p', { class: 'empty' }, 'Nothing yet. ', h('a', { href: '#/' }, 'Find a story'), ' to start.')
          : h('ul', { class: 'progress-list' }, entries.map(entryItem)),
      )
    } catch (e) {
      if (abort.signal.aborted) return
      replace(
        body,
        h(
          'p',
          { role: 'alert' },
          `The list could not be loaded: ${e instanceof Error ? e.message : String(e)}`,
        ),
      )
    }
  }
  void load()
  const unsubscribe = account.subscribe(() => void load())
  return () => {
    abort.abort()
    unsubscribe()
  }
}
