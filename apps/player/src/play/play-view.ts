/**
 * Playing an opened story: blocks appear as the engine emits them, options and links are buttons, the state is
 * saved at every pause, a resume rebuilds the scroll-back without animation up to `renderedParagraph`.
 */
import type { JsonValue, ReadingState } from '@spkg/manifest'
import { isProgressivePackage } from '@spkg/reader'
import { createStoryRun, resumeStoryRun, type StoryEvent, type StoryRun } from '@spkg/story'
import { cloudDriver } from '../account/index'
import type { PackageSource, PlayContext } from '../features/context'
import { mountPlayFeatures, prepareStart } from '../features/index'
import { h, replace } from '../lib/dom'
import { createStateKeeper, type StateKeeper } from '../state/storage'
import { type OpenedStory, storyTitle } from './open'
import { renderBlock } from './render-block'

export interface PlayOptions {
  /** Start afresh even when a state is saved. */
  fresh?: boolean
  /** Opens another package (the instruction action). */
  openPackage(source: PackageSource): Promise<void>
  /** Back to where the reader came from (the end screen's second button). */
  onExit?: () => void
}

/** The handle of a story being played: `stop()` ends the loop and unmounts the features. */
export interface PlayHandle {
  stop(): void
  /** Resolves when the view reached its first pause or the end (tests, timing). */
  ready: Promise<void>
  keeper: StateKeeper
}

const LOADING_DELAY_MS = 120

/**
 * Whether the dice were rolled since the previous pause: the generator's state moved. Its state starts equal to the
 * seed (section 7 of the story language), so before the first pause the seed is the previous state.
 */
export function rolledSince(previous: number | undefined, state: ReadingState): boolean {
  return state.rng.state !== (previous ?? state.rng.seed)
}

/** Plays `story` in `container`. */
export function playStory(container: HTMLElement, story: OpenedStory, options: PlayOptions): PlayHandle {
  const { pkg } = story
  const manifest = pkg.manifest
  const source = pkg.storySource()
  const keeper = createStateKeeper({
    storyId: source.id,
    ...(source.version ? { version: source.version } : {}),
    ...(manifest?.storage ? { manifestStorage: manifest.storage } : {}),
    cloud: safeCloud(),
  })
  let stopped = false
  let unmountFeatures: (() => void) | undefined
  const listeners = new Set<(e: StoryEvent) => void>()
  const cleanups: Array<() => void> = []

  const title = storyTitle(story)
  const badges = h('div', { class: 'play-badges' })
  const actions = h('div', { class: 'play-actions' })
  const prep = h('div', { class: 'play-prep' })
  const transcript = h('div', {
    class: 'transcript',
    role: 'log',
    'aria-live': 'polite',
    'aria-label': 'Story',
  })
  const choices = h('div', { class: 'choices', role: 'group', 'aria-label': 'Choices' })
  // The player's own words are English, left to right, inside a story of any language and direction.
  const ui = { lang: 'en', dir: 'ltr' }
  const status = h('p', { class: 'play-status', role: 'status', 'aria-live': 'polite', ...ui })
  const tabBar = h('div', { class: 'tab-bar-slot' })
  const root = h(
    'section',
    {
      class: 'play',
      dir: manifest?.direction === 'rtl' ? 'rtl' : 'ltr',
      ...(manifest?.language ? { lang: manifest.language } : {}),
      'aria-label': title,
    },
    h('header', { class: 'play-header' }, h('h1', { class: 'play-title' }, title), badges, actions),
    prep,
    transcript,
    status,
    choices,
    tabBar,
  )
  replace(container, root)

  let loadingTimer: ReturnType<typeof setTimeout> | undefined
  let partLoading: string | undefined
  function setLoading(on: boolean, text = 'Loading the story…') {
    if (loadingTimer) clearTimeout(loadingTimer)
    loadingTimer = undefined
    if (on) {
      loadingTimer = setTimeout(() => {
        status.textContent = partLoading ? 'Loading the next part…' : text
        root.setAttribute('aria-busy', 'true')
        status.classList.add('busy')
      }, LOADING_DELAY_MS)
    } else {
      status.textContent = ''
      status.classList.remove('busy')
      root.removeAttribute('aria-busy')
    }
  }
  if (isProgressivePackage(pkg)) {
    cleanups.push(
      pkg.onPartLoad((e) => {
        if (e.type === 'part-loading') partLoading = e.part
        else if (partLoading === e.part) partLoading = undefined
        if (e.type === 'part-failed')
          status.textContent = `A part could not be loaded (${e.diagnostic?.code ?? 'pkg/fetch-failed'}). Retrying when you go on.`
      }),
    )
  }

  let resolveReady: () => void = () => {}
  const ready = new Promise<void>((r) => {
    resolveReady = r
  })

  async function run(): Promise<void> {
    status.textContent = 'Loading the story…'
    const saved = options.fresh ? undefined : await keeper.load().catch(() => undefined)
    if (stopped) return
    const start = await prepareStart({
      pkg,
      manifest,
      session: pkg.session,
      resuming: !!saved,
      container: prep,
    })
    prep.replaceChildren()
    if (stopped) return
    if (start.cancelled) {
      status.textContent = 'The story was not started.'
      resolveReady()
      return
    }
    const runOptions = {
      ...(start.session ? { session: start.session } : {}),
      ...(start.host ? { host: start.host } : {}),
    }
    let storyRun: StoryRun
    let firstFresh: HTMLElement | undefined
    if (saved) {
      const resumed = await resumeStoryRun(source, saved, runOptions)
      storyRun = resumed.run
      // The scroll-back: every replayed block, those already seen without animation.
      for (const b of resumed.scrollBack) transcript.append(renderBlock(b.block, pkg, b.block.seen === true))
    } else {
      storyRun = createStoryRun(source, runOptions)
    }
    status.textContent = ''
    const ctx: PlayContext = {
      pkg,
      manifest,
      run: storyRun,
      variables: () => storyRun.saveState().variables as Record<string, JsonValue>,
      onEvent(l) {
        listeners.add(l)
        return () => listeners.delete(l)
      },
      slots: { tabBar, badges, actions },
      openPackage: options.openPackage,
    }
    try {
      unmountFeatures = mountPlayFeatures(ctx)
    } catch (e) {
      console.error('play features failed', e)
    }
    let lastRng = saved?.rng.state
    let sincePause: HTMLElement[] = []
    let first = true
    let loadFailed: string | undefined
    for (;;) {
      setLoading(true)
      const e = await storyRun.next()
      setLoading(false)
      if (stopped) return
      if (!e) break
      for (const l of listeners) {
        try {
          l(e)
        } catch (err) {
          console.error(err)
        }
      }
      if (e.replay) continue
      if (e.type === 'block') {
        const el = renderBlock(e.block, pkg, false)
        transcript.append(el)
        // For measurements (README): the first block of a page, from the start of navigation.
        if (!performance.getEntriesByName('spkg-first-block').length) performance.mark('spkg-first-block')
        sincePause.push(el)
        firstFresh ??= el
        if (isProgressivePackage(pkg)) {
          const p = storyRun.progress
          if (p) pkg.progress(p.part, p.fraction)
        }
      } else if (e.type === 'diagnostic') {
        console.warn(`${e.diagnostic.code}: ${e.diagnostic.message}`)
        if (e.diagnostic.code === 'story/load-failed') loadFailed = e.diagnostic.message
      } else if (e.type === 'pause') {
        const state = storyRun.saveState()
        if (rolledSince(lastRng, state)) markRolls(sincePause, transcript)
        lastRng = state.rng.state
        sincePause = []
        void keeper.save(state)
        const answer = await ask(e, firstFresh, first)
        first = false
        firstFresh = undefined
        if (stopped) return
        storyRun.choose(answer)
      } else if (e.type === 'end') {
        break
      }
    }
    if (loadFailed) {
      // Not an ending: a part could not be fetched. The state saved at the last pause stays, to try again from.
      showLoadFailed(loadFailed)
      return
    }
    const endState = storyRun.saveState()
    if (rolledSince(lastRng, endState)) markRolls(sincePause, transcript)
    void keeper.save(endState)
    showEnd(firstFresh)
  }

  function showLoadFailed(message: string) {
    replace(
      choices,
      h(
        'div',
        { class: 'load-failed', role: 'alert', ...ui },
        h(
          'p',
          { class: 'end-title', tabindex: '-1' },
          'The next part of the story could not be loaded. Check the connection and try again.',
        ),
        h('p', { class: 'codes' }, `story/load-failed: ${message}`),
        h(
          'button',
          {
            type: 'button',
            class: 'primary',
            onclick: async () => {
              await keeper.idle()
              stop()
              handleRestart(false)
            },
          },
          'Try again',
        ),
      ),
    )
    resolveReady()
    ;(choices.querySelector('.end-title') as HTMLElement | null)?.focus()
  }

  function focusNew(el: HTMLElement | undefined, first: boolean) {
    if (!el) return
    el.focus({ preventScroll: true })
    // The first screen stays at the top (the title shows); after a choice the new text comes into view.
    if (!first) el.scrollIntoView({ block: 'start', behavior: 'auto' })
  }

  function ask(
    pause: Extract<StoryEvent, { type: 'pause' }>,
    fresh: HTMLElement | undefined,
    first: boolean,
  ): Promise<{ option: string } | { link: string }> {
    return new Promise((resolve) => {
      const buttons: HTMLButtonElement[] = []
      const pick = (answer: { option: string } | { link: string }, label: string) => {
        for (const b of buttons) b.disabled = true
        choices.replaceChildren()
        transcript.append(
          h('p', { class: 'chosen' }, h('span', { class: 'visually-hidden', ...ui }, 'You chose: '), label),
        )
        resolve(answer)
      }
      for (const o of pause.options)
        buttons.push(
          h(
            'button',
            { type: 'button', class: 'option', onclick: () => pick({ option: o.id }, o.text) },
            o.text,
          ),
        )
      for (const l of pause.links)
        buttons.push(
          h(
            'button',
            { type: 'button', class: 'option link', onclick: () => pick({ link: l.target }, l.text) },
            l.text,
          ),
        )
      replace(choices, buttons)
      resolveReady()
      // Focus on the new text; with none (a resume at a pause, or a choice that showed nothing) on the first choice.
      if (fresh) focusNew(fresh, first)
      else buttons[0]?.focus()
    })
  }

  function showEnd(fresh: HTMLElement | undefined) {
    const again = h(
      'button',
      {
        type: 'button',
        class: 'primary',
        onclick: async () => {
          await keeper.clear()
          stop()
          handleRestart(true)
        },
      },
      'Start again',
    )
    replace(
      choices,
      h(
        'div',
        { class: 'the-end', role: 'status', ...ui },
        h('p', { class: 'end-title', tabindex: '-1' }, 'The end.'),
        again,
        options.onExit
          ? h('button', { type: 'button', onclick: () => options.onExit?.() }, 'Back')
          : undefined,
      ),
    )
    resolveReady()
    if (fresh) focusNew(fresh, false)
    else (choices.querySelector('.end-title') as HTMLElement | null)?.focus()
  }

  let handleRestart = (fresh: boolean) => {
    restarted = playStory(container, story, { ...options, fresh })
  }
  let restarted: PlayHandle | undefined

  function stop() {
    stopped = true
    if (loadingTimer) clearTimeout(loadingTimer)
    for (const c of cleanups.splice(0)) c()
    try {
      unmountFeatures?.()
    } catch (e) {
      console.error(e)
    }
    unmountFeatures = undefined
  }

  run().catch((e) => {
    console.error(e)
    status.textContent = `The story stopped: ${e instanceof Error ? e.message : String(e)}`
    resolveReady()
  })

  return {
    keeper,
    ready,
    stop() {
      handleRestart = (_fresh: boolean) => {}
      stop()
      restarted?.stop()
    },
  }
}

/**
 * Marks the blocks that followed a roll of the dice (the generator moved): a die shows before them (CSS, with
 * "dice rolled" as its spoken text), so the block's own text stays the story's.
 */
function markRolls(blocks: HTMLElement[], transcript: HTMLElement) {
  const withNumber = blocks.filter((b) => /\d/.test(b.textContent ?? ''))
  const targets = withNumber.length ? withNumber : blocks.slice(-1)
  for (const b of targets) b.classList.add('rolled')
  if (!targets.length) transcript.append(h('p', { class: 'dice-note rolled' }, 'The dice were rolled.'))
}

function safeCloud() {
  try {
    return cloudDriver()
  } catch {
    return null
  }
}
