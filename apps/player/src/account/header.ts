/**
 * The account part of the header: **Sign in**, or **Signed in as** the reader with **In progress** and **Sign out**.
 */
import { h } from '../lib/dom'
import type { Account, AccountState } from './account'

/** Renders the account controls into `container` and keeps them current; returns the unmount function. */
export function mountAccountControls(container: HTMLElement, account: Account): () => void {
  const root = h('div', { class: 'account', 'data-account': 'starting' })
  container.append(root)
  const render = (state: AccountState) => {
    root.setAttribute('data-account', state.status)
    const children: Node[] = []
    if (state.status === 'signed-in' && state.user) {
      const out = h('button', { type: 'button', class: 'account-sign-out' }, 'Sign out')
      out.addEventListener('click', () => {
        out.setAttribute('disabled', '')
        void account.signOut()
      })
      children.push(
        h('span', { class: 'account-user' }, 'Signed in as ', h('strong', {}, state.user.name)),
        h('a', { href: '#/progress', class: 'account-progress' }, 'In progress'),
        out,
      )
    } else {
      children.push(h('a', { href: '#/progress', class: 'account-progress' }, 'In progress'))
      if (state.status !== 'unavailable') {
        const signIn = h('button', { type: 'button', class: 'account-sign-in' }, 'Sign in')
        if (state.status === 'starting') signIn.setAttribute('disabled', '')
        signIn.addEventListener('click', () => void account.signIn())
        children.push(signIn)
      }
    }
    if (state.error) children.push(h('p', { class: 'account-error', role: 'alert' }, state.error))
    root.replaceChildren(...children)
  }
  render(account.state())
  const unsubscribe = account.subscribe(render)
  return () => {
    unsubscribe()
    root.remove()
  }
}
