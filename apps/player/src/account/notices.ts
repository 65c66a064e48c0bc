/**
 * What the reader is told when the API client reports a problem (SPEC, Client behaviour 2): the event of
 * `@spkg/client` turned into a short notice in plain words. Pure, so the wording is tested without a browser.
 */
import type { ClientEventDetail, ClientEventType } from '@spkg/client'

/** A notice: `error` ones are announced assertively (role=alert), `info` ones politely (role=status). */
export interface Notice {
  /** The event it comes from; a new notice of the same kind replaces the shown one. */
  kind: ClientEventType
  level: 'info' | 'error'
  text: string
  /** An action the notice offers. */
  action?: 'sign-in'
}

/** Seconds as the reader reads them: `45 s`, `2 min`, `1 min 30 s`. */
export function formatWait(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds))
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  const rest = s % 60
  return rest === 0 ? `${m} min` : `${m} min ${rest} s`
}

/**
 * The notice for a client event, or undefined for events that have their own indicator (`offline`, `reconnected`:
 * the connection banner) or need none (`logout`: the header changes).
 *
 * @example
 * noticeFor('rate-limited', { status: 429, method: 'GET', path: '/api/progress', retryAfter: 30 })
 * // { kind: 'rate-limited', level: 'error', text: 'Too many requests: try again in 30 s.' }
 */
export function noticeFor(type: ClientEventType, detail: ClientEventDetail): Notice | undefined {
  switch (type) {
    case 'auth-required':
      return {
        kind: type,
        level: 'error',
        text: 'Your session has ended: sign in again to keep saving your progress to your account.',
        action: 'sign-in',
      }
    case 'forbidden':
      return { kind: type, level: 'error', text: 'You do not have permission to do that.' }
    case 'rate-limited':
      return {
        kind: type,
        level: 'error',
        text:
          detail.retryAfter === undefined
            ? 'Too many requests: wait a moment and try again.'
            : `Too many requests: try again in ${formatWait(detail.retryAfter)}.`,
      }
    case 'network-error':
      return { kind: type, level: 'error', text: 'The server could not be reached. Check your connection.' }
    case 'server-error': {
      const message = detail.message?.trim()
      const generic = !message || /^internal server error$/i.test(message)
      return {
        kind: type,
        level: 'error',
        text: generic
          ? `The server had a problem (${detail.status}). Try again later.`
          : `The server had a problem (${detail.status}): ${message}`,
      }
    }
    case 'conflict':
      return {
        kind: type,
        level: 'info',
        text: 'Progress saved offline was older than the progress in your account, which was kept.',
      }
    default:
      return undefined
  }
}
