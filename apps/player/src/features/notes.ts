/**
 * The DOM of the manifest notes (manifest-notes.ts) and of instruction links: badges in the play view's header, the
 * notes list on the envelope, the action that opens a story's instruction package, and an instruction's list of the
 * stories it covers.
 */
import type { Manifest } from '@spkg/manifest'
import { h, replace } from '../lib/dom'
import type { PackageSource } from './context'
import { catalogItems, coveredFromCatalog, instructionFromCatalog } from './instruction'
import { type ManifestNote, manifestNotes } from './manifest-notes'

/** Badges (with the sentence as their accessible description) for the play view's header. */
export function badgeList(notes: readonly ManifestNote[]): HTMLElement[] {
  return notes.map((n) =>
    h(
      'span',
      { class: `badge feature-badge badge-${n.kind}`, title: n.text, 'data-note': n.kind },
      n.badge,
      h('span', { class: 'visually-hidden' }, `: ${n.text}`),
    ),
  )
}

/** The envelope's notes: each badge with its sentence. */
export function notesList(notes: readonly ManifestNote[]): HTMLElement | undefined {
  if (!notes.length) return undefined
  return h(
    'ul',
    { class: 'feature-notes', 'aria-label': 'About this story' },
    notes.map((n) =>
      h(
        'li',
        { 'data-note': n.kind },
        h('span', { class: `badge feature-badge badge-${n.kind}` }, n.badge),
        ' ',
        n.text,
      ),
    ),
  )
}

/** Where the player reads the catalog, and opens packages. */
export interface LinkDeps {
  apiBase: string
  origin: string
  openPackage(source: PackageSource): Promise<void>
  fetch?: typeof fetch
}

/**
 * The action that opens a story's instruction package (`manifest.instruction`). The button looks the link up in the
 * catalog when pressed (no request before), then opens the instruction as its own package.
 */
export function instructionAction(m: Manifest, deps: LinkDeps): HTMLElement | undefined {
  const ref = m.type !== 'instruction' ? m.instruction : undefined
  if (!ref) return undefined
  const status = h('span', { class: 'instruction-status', role: 'status', 'aria-live': 'polite' })
  const button = h(
    'button',
    {
      type: 'button',
      class: 'instruction-open',
      onclick: async () => {
        button.disabled = true
        status.textContent = 'Opening the instructions…'
        try {
          const link = instructionFromCatalog(await catalogItems(deps.apiBase, deps.fetch), ref, deps.origin)
          if (!link) {
            status.textContent = `The instruction package (${ref}) is not published on this platform.`
            return
          }
          status.textContent = ''
          await deps.openPackage({ kind: 'url', url: link.url })
        } catch (e) {
          status.textContent = e instanceof Error ? e.message : String(e)
        } finally {
          button.disabled = false
        }
      },
    },
    'Open the instructions',
  )
  return h('div', { class: 'instruction-action' }, button, status)
}

/** An instruction's list of the stories it covers, filled from the catalog (links to each story's page). */
export function coveredStories(m: Manifest, deps: LinkDeps): HTMLElement | undefined {
  if (m.type !== 'instruction') return undefined
  const list = h(
    'div',
    { class: 'instruction-covers', role: 'status', 'aria-live': 'polite' },
    'Looking up the stories this guide covers…',
  )
  const box = h('section', { class: 'instruction-for', 'aria-label': 'Stories this guide covers' }, list)
  void catalogItems(deps.apiBase, deps.fetch)
    .then((items) => {
      const found = coveredFromCatalog(items, m)
      const missing = (m.stories ?? []).length - found.length
      replace(
        list,
        found.length
          ? [
              h('p', null, 'This guide covers:'),
              h(
                'ul',
                null,
                found.map((s) =>
                  h('li', null, h('a', { href: `#/story/${encodeURIComponent(s.slug)}` }, s.title)),
                ),
              ),
            ]
          : h('p', null, 'None of the stories this guide covers is published here.'),
        missing > 0 && found.length
          ? h('p', { class: 'tab-note' }, `${missing} more not published here.`)
          : undefined,
      )
    })
    .catch((e: Error) => {
      replace(
        list,
        h('p', null, `The stories this guide covers could not be looked up: ${e.message}`),
        m.stories?.length ? h('p', null, `It names: ${m.stories.join(', ')}.`) : undefined,
      )
    })
  return box
}

/** Everything the envelope shows from the features: notes, the instruction action, an instruction's stories. */
export function envelopeBlock(m: Manifest | undefined, deps: LinkDeps): HTMLElement | undefined {
  if (!m) return undefined
  const parts = [notesList(manifestNotes(m)), instructionAction(m, deps), coveredStories(m, deps)].filter(
    (x): x is HTMLElement => !!x,
  )
  return parts.length ? h('div', { class: 'envelope-features' }, parts) : undefined
}
