/**
 * The reader tab bar's DOM: one button per enabled section (a disclosure: `aria-expanded`, `aria-controls`), in
 * thumb-distance order from the edge of the holding hand, and the open section's panel above the bar. Escape closes
 * the panel and gives the focus back to its button. With `priorityHand: 'reader'` the bar's far end has a button that
 * switches hands, remembered in localStorage. docs/tab-bar.md.
 */
import type { JsonValue } from '@spkg/manifest'
import type { SpkgPackage } from '@spkg/reader'
import { h, replace } from '../lib/dom'
import { audioTool, type CaptureTool, captureSupport, photoTool, qrScanTool } from './capture'
import type { SensorHub } from './sensors'
import {
  effectiveHand,
  type Hand,
  loadHandedness,
  orderForHand,
  type SectionConfig,
  type SectionName,
  saveHandedness,
  sectionValues,
  type TabBarConfig,
} from './tab-bar-model'

/** What the bar needs from the play view. */
export interface TabBarOptions {
  pkg: SpkgPackage
  config: TabBarConfig
  /** The story variables now (throws mid-run: the last values are kept). */
  variables(): Record<string, JsonValue>
  /** Calls back at every pause and at the end, when the variables may have changed. Returns unsubscribe. */
  onChange(listener: () => void): () => void
  sensors?: SensorHub | undefined
  storage?: Storage | undefined
}

let ids = 0

function iconOf(section: SectionConfig, pkg: SpkgPackage): HTMLElement {
  if (section.iconIsPath) {
    const src = pkg.has(section.icon) ? pkg.mediaUrl(section.icon) : undefined
    if (src) return h('img', { class: 'tab-icon', src, alt: '' })
  }
  return h('span', { class: 'tab-icon', 'aria-hidden': 'true' }, section.iconIsPath ? '•' : section.icon)
}

function variablesList(section: SectionConfig, vars: Record<string, JsonValue>, empty: string): HTMLElement {
  if (!section.variables.length) return h('p', { class: 'tab-empty' }, empty)
  return h(
    'dl',
    { class: 'tab-vars' },
    sectionValues(section, vars).map((v) =>
      h('div', { class: 'tab-var', 'data-var': v.name }, h('dt', null, v.label), h('dd', null, v.value)),
    ),
  )
}

/** Mounts the bar into `slot`; returns the unmount. */
export function mountTabBar(slot: HTMLElement, options: TabBarOptions): () => void {
  const { pkg, config } = options
  const base = `tab-${++ids}`
  let hand: Hand = loadHandedness(options.storage)
  let open: SectionName | undefined
  let lastVars: Record<string, JsonValue> = {}
  const tools: CaptureTool[] = []
  const startedAt = Date.now()
  let clock: ReturnType<typeof setInterval> | undefined
  let revealedHints = 0
  const support = captureSupport()

  const readVars = () => {
    try {
      lastVars = options.variables()
    } catch {}
    return lastVars
  }
  readVars()

  const panel = h('div', { class: 'tab-panel', id: `${base}-panel`, role: 'region', hidden: true })
  const buttons = h('div', { class: 'tab-buttons' })
  const bar = h('nav', { class: 'tab-bar', 'aria-label': 'Story tools', dir: 'ltr' }, panel, buttons)

  function sectionBody(section: SectionConfig): HTMLElement[] {
    const vars = lastVars
    const text = section.text ? [h('p', { class: 'tab-text' }, section.text)] : []
    switch (section.name) {
      case 'character':
      case 'bag':
        return [...text, variablesList(section, vars, 'Nothing to show yet.')]
      case 'help': {
        const hints = section.hints.slice(0, revealedHints).map((t) => h('li', { tabindex: '-1' }, t))
        const more =
          revealedHints < section.hints.length
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'tab-hint-next',
                  onclick: () => {
                    revealedHints++
                    render()
                    ;(panel.querySelector('.tab-hints li:last-child') as HTMLElement | null)?.focus()
                  },
                },
                revealedHints ? 'Another hint' : 'Show a hint',
              )
            : undefined
        return [
          ...text,
          section.variables.length ? variablesList(section, vars, '') : undefined,
          hints.length ? h('ol', { class: 'tab-hints' }, hints) : undefined,
          more,
          h(
            'p',
            { class: 'tab-note' },
            'Choices are buttons: Tab moves between them, Enter picks one. Escape closes this panel.',
          ),
        ].filter((x): x is HTMLElement => !!x)
      }
      case 'map': {
        const out: HTMLElement[] = [...text]
        if (section.image) {
          const src = pkg.has(section.image) ? pkg.mediaUrl(section.image) : undefined
          const named = pkg.manifest?.assets?.find((a) => a.file === section.image)?.name
          if (src)
            out.push(
              h('img', { class: 'tab-map', src, alt: section.alt ?? named ?? `Map (${section.image})` }),
            )
          else
            out.push(h('p', { class: 'tab-empty' }, `The map image ${section.image} is not in this package.`))
        }
        if (section.variables.length) out.push(variablesList(section, vars, ''))
        const geo = options.sensors?.granted.includes('geolocation')
        if (geo) {
          const r = options.sensors?.reading('geolocation') as
            | { lat?: number; lon?: number; accuracy?: number }
            | undefined
          const why = options.sensors?.problem('geolocation')
          out.push(
            h(
              'p',
              { class: 'tab-location' },
              r?.lat !== undefined
                ? `You are at ${r.lat}, ${r.lon} (within ${r.accuracy} m).`
                : `Your location: ${why ?? 'waiting for a position…'}`,
            ),
          )
        }
        out.push(h('p', { class: 'tab-clock' }, `Running time: ${elapsed()}`))
        if (!section.image && !section.variables.length && !geo && !text.length)
          out.unshift(h('p', { class: 'tab-empty' }, 'This story gives no map image.'))
        return out
      }
      case 'actions': {
        const out: HTMLElement[] = [...text]
        for (const t of tools.splice(0)) t.stop()
        const asked: Array<[keyof typeof support, string, () => CaptureTool]> = []
        if (section.qrScan) asked.push(['qrScan', 'QR scan', qrScanTool])
        if (section.photo) asked.push(['photo', 'Photo', photoTool])
        if (section.audio) asked.push(['audio', 'Sound recording', audioTool])
        for (const [key, name, make] of asked) {
          const why = support[key]
          if (why)
            out.push(
              h(
                'p',
                { class: 'capture-unavailable', 'data-capture': key },
                `${name} is unavailable: ${why}.`,
              ),
            )
          else {
            const tool = make()
            tools.push(tool)
            out.push(tool.el)
          }
        }
        if (section.variables.length) out.push(variablesList(section, vars, ''))
        if (!out.length) out.push(h('p', { class: 'tab-empty' }, 'No actions right now.'))
        return out
      }
    }
  }

  function elapsed(): string {
    const s = Math.floor((Date.now() - startedAt) / 1000)
    const hh = Math.floor(s / 3600)
    const mm = String(Math.floor((s % 3600) / 60)).padStart(hh ? 2 : 1, '0')
    const ss = String(s % 60).padStart(2, '0')
    return hh ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`
  }

  function renderPanel() {
    const section = config.sections.find((s) => s.name === open)
    if (clock) clearInterval(clock)
    clock = undefined
    if (!section) {
      for (const t of tools.splice(0)) t.stop()
      panel.hidden = true
      panel.removeAttribute('aria-labelledby')
      panel.replaceChildren()
      return
    }
    panel.hidden = false
    panel.setAttribute('aria-labelledby', `${base}-${section.name}`)
    panel.dataset.section = section.name
    replace(panel, h('h2', { class: 'tab-panel-title' }, section.label), sectionBody(section))
    if (section.name === 'map')
      clock = setInterval(() => {
        const c = panel.querySelector('.tab-clock')
        if (c) c.textContent = `Running time: ${elapsed()}`
      }, 1000)
  }

  function toggle(name: SectionName) {
    open = open === name ? undefined : name
    if (open) readVars()
    render()
  }

  function render() {
    const current = effectiveHand(config.priorityHand, hand)
    bar.dataset.hand = current
    const items: HTMLElement[] = orderForHand(config.sections, current).map((s) =>
      h(
        'button',
        {
          type: 'button',
          class: 'tab-button',
          id: `${base}-${s.name}`,
          'data-section': s.name,
          'aria-expanded': open === s.name ? 'true' : 'false',
          'aria-controls': `${base}-panel`,
          onclick: () => toggle(s.name),
        },
        iconOf(s, pkg),
        h('span', { class: 'tab-label' }, s.label),
      ),
    )
    if (config.priorityHand === 'reader') {
      const other: Hand = current === 'right' ? 'left' : 'right'
      const swap = h(
        'button',
        {
          type: 'button',
          class: 'tab-hand',
          'aria-label': `Bar for the ${other} hand (now ${current}-handed)`,
          title: `Bar for the ${other} hand`,
          onclick: () => {
            hand = other
            saveHandedness(options.storage, hand)
            render()
            ;(buttons.querySelector('.tab-hand') as HTMLElement | null)?.focus()
          },
        },
        h('span', { 'aria-hidden': 'true' }, '⇄'),
      )
      // The far end, away from the thumb.
      if (current === 'right') items.unshift(swap)
      else items.push(swap)
    }
    const focused =
      document.activeElement instanceof HTMLElement ? document.activeElement.dataset.section : undefined
    replace(buttons, items)
    if (focused) (buttons.querySelector(`[data-section="${focused}"]`) as HTMLElement | null)?.focus()
    renderPanel()
  }

  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return
    const name = open
    open = undefined
    render()
    ;(buttons.querySelector(`[data-section="${name}"]`) as HTMLElement | null)?.focus()
  }
  bar.addEventListener('keydown', onKey)

  const offChange = options.onChange(() => {
    readVars()
    if (open && open !== 'actions') renderPanel()
  })
  const offSensors = options.sensors?.onChange(() => {
    if (open === 'map') {
      const p = panel.querySelector('.tab-location')
      const r = options.sensors?.reading('geolocation') as
        | { lat?: number; lon?: number; accuracy?: number }
        | undefined
      if (p && r?.lat !== undefined) p.textContent = `You are at ${r.lat}, ${r.lon} (within ${r.accuracy} m).`
    }
  })

  render()
  slot.append(bar)
  slot.classList.add('has-tab-bar')
  return () => {
    offChange()
    offSensors?.()
    if (clock) clearInterval(clock)
    for (const t of tools.splice(0)) t.stop()
    bar.remove()
    slot.classList.remove('has-tab-bar')
  }
}
