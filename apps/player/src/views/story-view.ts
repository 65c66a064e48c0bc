/**
 * A story's page: open the package (catalog, URL, or the file just picked), show its envelope, play it.
 * `#/story/<slug>` (catalog), `#/url/<address>` (a package URL), `#/play` (the package opened from a file).
 */

import { cloudDriver } from '../account/index'
import type { PackageSource } from '../features/context'
import { h, replace } from '../lib/dom'
import { trustKey } from '../lib/trust'
import { type OpenedStory, openSource } from '../play/open'
import { type PlayHandle, playStory } from '../play/play-view'
import { navigate } from '../router'
import { createStateKeeper } from '../state/storage'
import { envelope, refusal } from './envelope'

/** The package opened from a file or bytes (not addressable by URL): kept for `#/play`. */
let current: OpenedStory | undefined

/** A package whose envelope led to its play route: reused there instead of being downloaded again. */
let handoff: { key: string; story: OpenedStory } | undefined

function sourceKey(source: PackageSource): string | undefined {
  if (source.kind === 'catalog') return `catalog:${source.slug}`
  if (source.kind === 'url') return `url:${source.url}`
  return undefined
}

/** Replaces the package opened from a file (the old one is closed). */
export function setCurrent(story: OpenedStory | undefined): void {
  if (current && current !== story) current.pkg.close()
  current = story
}

function loading(outlet: HTMLElement, text: string) {
  replace(outlet, h('p', { class: 'loading', role: 'status', 'aria-live': 'polite' }, text))
}

/** Opens `source` in `outlet` and shows the envelope, or the refusal. Resolves to the clean-up. */
async function openAndShow(
  outlet: HTMLElement,
  source: PackageSource,
  play: boolean,
  playPath: string | undefined,
): Promise<() => void> {
  const abort = new AbortController()
  loading(outlet, 'Opening the story…')
  let story: OpenedStory | undefined
  let handle: PlayHandle | undefined
  const cleanup = () => {
    handle?.stop()
    // The signal also serves the package's later reads (its parts, over HTTP ranges): a package handed to its play
    // route keeps it.
    if (story && (story === current || story === handoff?.story)) return
    abort.abort()
    story?.pkg.close()
  }
  const key = sourceKey(source)
  const handed = handoff && handoff.key === key ? handoff.story : undefined
  if (handoff && !handed) handoff.story.pkg.close()
  handoff = undefined
  if (handed) {
    story = handed
    handle = await showStory(outlet, story, play, playPath)
    return cleanup
  }
  const outcome = await openSource(source, abort.signal).catch((e) => {
    if (abort.signal.aborted) return undefined
    throw e
  })
  if (!outcome || abort.signal.aborted) {
    if (outcome?.ok) outcome.story.pkg.close()
    return cleanup
  }
  if (!outcome.ok) {
    replace(
      outlet,
      refusal(outcome.diagnostics, outcome.catalog ? `“${outcome.catalog.title}”` : 'This package'),
    )
    ;(outlet.querySelector('h1') as HTMLElement | null)?.focus()
    return cleanup
  }
  story = outcome.story
  handle = await showStory(outlet, story, play, playPath)
  return cleanup
}

/** Envelope first; `play` skips it (a reload of the play route resumes at once). */
export async function showStory(
  outlet: HTMLElement,
  story: OpenedStory,
  play: boolean,
  playPath: string | undefined,
): Promise<PlayHandle | undefined> {
  const open = async (source: PackageSource) => {
    if (source.kind === 'catalog') navigate(`/story/${encodeURIComponent(source.slug)}`)
    else if (source.kind === 'url') navigate(`/url/${encodeURIComponent(source.url)}`)
    else {
      const r = await openSource(source)
      if (r.ok) {
        setCurrent(r.story)
        navigate('/play?envelope=1')
      } else replace(outlet, refusal(r.diagnostics))
    }
  }
  const startPlay = (fresh: boolean) =>
    playStory(outlet, story, { fresh, openPackage: open, onExit: () => navigate('/') })
  if (play) return startPlay(false)
  const m = story.pkg.manifest
  const keeper = createStateKeeper({
    storyId: story.pkg.storySource().id,
    ...(m?.storage ? { manifestStorage: m.storage } : {}),
    cloud: (() => {
      try {
        return cloudDriver()
      } catch {
        return null
      }
    })(),
  })
  const saved = await keeper.load().catch(() => undefined)
  let handle: PlayHandle | undefined
  const go = (fresh: boolean) => {
    if (playPath) {
      const key = sourceKey(story.source)
      if (key) handoff = { key, story }
      if (fresh) void keeper.clear().then(() => navigate(playPath))
      else navigate(playPath)
    } else handle = startPlay(fresh)
  }
  const actions = saved
    ? [
        h('button', { type: 'button', class: 'primary', onclick: () => go(false) }, 'Continue reading'),
        h('button', { type: 'button', onclick: () => go(true) }, 'Start from the beginning'),
      ]
    : [h('button', { type: 'button', class: 'primary', onclick: () => go(false) }, 'Start reading')]
  let replaced: OpenedStory | undefined
  const onTrust = async (fingerprint: string) => {
    trustKey(fingerprint)
    loading(outlet, 'Checking the signature again…')
    const again = await openSource(story.source)
    if (!again.ok) {
      replace(outlet, refusal(again.diagnostics))
      return
    }
    if (story === current) setCurrent(again.story)
    else {
      story.pkg.close()
      replaced = again.story
    }
    handle = await showStory(outlet, again.story, false, playPath)
  }
  replace(outlet, envelope(story, actions, { onTrust }))
  ;(outlet.querySelector('#envelope-title') as HTMLElement | null)?.focus()
  return {
    keeper,
    ready: Promise.resolve(),
    stop: () => {
      handle?.stop()
      if (replaced && replaced !== current) replaced.pkg.close()
    },
  }
}

/** `#/story/<slug>` and `#/story/<slug>/play`. */
export function renderCatalogStory(outlet: HTMLElement, slug: string, play: boolean) {
  return openAndShow(outlet, { kind: 'catalog', slug }, play, `/story/${encodeURIComponent(slug)}/play`)
}

/** `#/url/<address>` and `#/url/<address>/play`. */
export function renderUrlStory(outlet: HTMLElement, url: string, play: boolean) {
  return openAndShow(outlet, { kind: 'url', url }, play, `/url/${encodeURIComponent(url)}/play`)
}

/** `#/play`: the package opened from a file (`?envelope=1` shows its envelope first). */
export async function renderOpenedPlay(outlet: HTMLElement, _p: unknown, query: URLSearchParams) {
  if (!current) {
    replace(
      outlet,
      h(
        'section',
        { class: 'empty' },
        h('h1', null, 'No story is open'),
        h(
          'p',
          null,
          'A story opened from a file is not kept when the page reloads. ',
          h('a', { href: '#/open' }, 'Open a story'),
          ' again: your place in it is saved.',
        ),
      ),
    )
    return
  }
  const handle = await showStory(outlet, current, query.get('envelope') !== '1', undefined)
  return () => handle?.stop()
}
