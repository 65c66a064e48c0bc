/**
 * FEATURES' hooks, called by the play view (src/play/play-view.ts) and the envelope:
 * - `prepareStart`: before the story starts, the form for the session settings, a single-role reader's role and the
 *   consent to sensors; resolves to the values and host functions the run starts with.
 * - `mountPlayFeatures`: once it plays, the tab bar, the badges, the instruction action (or an instruction's list of
 *   stories) and the network log; returns the unmount.
 * - `envelopeFeatures`: the notes the envelope shows (sample, offline, accessibility, cooperative, network, sensors)
 *   and the instruction links.
 * - `HOST_NAMESPACES`: the host namespaces the player provides (`net`, `sensors`), for the reader's
 *   `hostNamespaces` option, so a story that `requires` them opens.
 */
import type { JsonValue, Manifest } from '@spkg/manifest'
import type { SpkgPackage } from '@spkg/reader'
import type { HostFunctions } from '@spkg/story'
import { API_BASE } from '../lib/config'
import { h } from '../lib/dom'
import type { PackageSource, PlayContext, StartContext, StartOptions } from './context'
import './features.css'
import { isCooperative, manifestNotes, roleCount, soloMode } from './manifest-notes'
import { createNetworkGuard, type NetLogEntry, type NetworkGuard } from './network'
import { badgeList, coveredStories, envelopeBlock, instructionAction } from './notes'
import { SENSORS_NAMESPACE, type SensorHub, sensorPlan, startSensors } from './sensors'
import { sessionFields } from './session-model'
import type { StartFormSpec } from './start-form'
import { readTabBar } from './tab-bar-model'

export { HOST_NAMESPACES } from './namespaces'

/** The session variable a single-role reader's role is injected as (1-based). */
export const ROLE_VARIABLE = 'reader_role'

/** What prepareStart set up for a package, picked up by mountPlayFeatures. */
interface Prepared {
  net: NetworkGuard
  netLog: NetLogEntry[]
  netListeners: Set<(e: NetLogEntry) => void>
  sensors?: SensorHub
}
const prepared = new WeakMap<SpkgPackage, Prepared>()

const apiBase = () => API_BASE || location.origin

function prepareHost(pkg: SpkgPackage, manifest: Manifest | undefined, granted: string[]): HostFunctions {
  prepared.get(pkg)?.net.close()
  prepared.get(pkg)?.sensors?.stop()
  const netListeners = new Set<(e: NetLogEntry) => void>()
  const netLog: NetLogEntry[] = []
  const net = createNetworkGuard({
    allowed: manifest?.allowed_urls,
    onLog: (e) => {
      netLog.push(e)
      if (e.outcome === 'blocked' || e.outcome === 'failed') console.warn(`${e.code}: ${e.message}`)
      for (const l of netListeners) l(e)
    },
  })
  const entry: Prepared = { net, netLog, netListeners }
  if (granted.length) entry.sensors = startSensors(granted)
  prepared.set(pkg, entry)
  return { ...net.host, ...(entry.sensors?.host ?? { [SENSORS_NAMESPACE]: { read: () => false } }) }
}

/** Before the story starts: session settings, role, sensors consent. Resolves to the values to inject. */
export async function prepareStart(ctx: StartContext): Promise<StartOptions> {
  const m = ctx.manifest
  const { known, unknown } = sensorPlan(m?.sensors)
  const spec: StartFormSpec = {
    session: ctx.resuming ? undefined : ctx.session,
    roles: !ctx.resuming && isCooperative(m) && soloMode(m) === 'single_role' ? roleCount(m) : undefined,
    sensors: known,
    unknownSensors: unknown,
  }
  let session: Record<string, JsonValue> | undefined = ctx.session
  let granted: string[] = []
  const asks =
    (spec.session ? sessionFields(spec.session).length : 0) +
    (spec.roles ?? 0) +
    known.length +
    unknown.length
  if (asks > 0) {
    // The form's code is loaded only for the stories that ask something.
    const { showStartForm } = await import('./start-form')
    const choice = await showStartForm(ctx.container, spec)
    if (!choice) return { cancelled: true }
    if (choice.session) session = choice.session
    if (choice.role !== undefined) session = { ...(session ?? {}), [ROLE_VARIABLE]: choice.role }
    granted = choice.sensors
  }
  const host = prepareHost(ctx.pkg, m, granted)
  return { ...(session ? { session } : {}), host }
}

function netLogView(entry: Prepared, hasAllowed: boolean): { el: HTMLElement; off: () => void } {
  const list = h('ul', { class: 'net-log-list' })
  const summary = h('summary', null, 'Network')
  const box = h(
    'details',
    { class: 'net-log', hidden: !hasAllowed && entry.netLog.length === 0 },
    summary,
    h('p', { class: 'tab-note' }, 'The story may reach only the addresses its manifest allows, by name.'),
    list,
  )
  const alert = h('p', { class: 'net-alert', role: 'alert', hidden: true })
  const add = (e: NetLogEntry) => {
    box.hidden = false
    list.append(
      h(
        'li',
        { class: `net-${e.outcome}`, 'data-outcome': e.outcome, 'data-alias': e.alias },
        e.message,
        e.code ? h('code', null, ` (${e.code})`) : undefined,
      ),
    )
    summary.textContent = `Network (${list.children.length})`
    if (e.outcome === 'blocked') {
      alert.hidden = false
      alert.textContent = `Blocked a network request: ${e.message}`
    }
  }
  for (const e of entry.netLog) add(e)
  entry.netListeners.add(add)
  return { el: h('div', { class: 'net-area' }, alert, box), off: () => entry.netListeners.delete(add) }
}

/** Once the story plays: tab bar, badges, instruction action, network log. Returns the unmount function. */
export function mountPlayFeatures(ctx: PlayContext): () => void {
  const m = ctx.manifest
  const cleanups: Array<() => void> = []
  const added: Element[] = []
  const add = (slot: HTMLElement, el: HTMLElement | undefined) => {
    if (!el) return
    slot.append(el)
    added.push(el)
  }
  for (const b of badgeList(manifestNotes(m))) add(ctx.slots.badges, b)

  const deps = { apiBase: apiBase(), origin: location.origin, openPackage: ctx.openPackage }
  if (m) {
    add(ctx.slots.actions, instructionAction(m, deps))
    add(ctx.slots.actions, coveredStories(m, deps))
  }

  let entry = prepared.get(ctx.pkg)
  if (!entry) {
    // A play view that did not call prepareStart: still guard the network (nothing can be injected now).
    prepareHost(ctx.pkg, m, [])
    entry = prepared.get(ctx.pkg)!
  }
  const log = netLogView(entry, !!m?.allowed_urls?.length)
  add(ctx.slots.actions, log.el)
  cleanups.push(log.off)
  cleanups.push(
    ctx.onEvent((e) => {
      // A call to a host function the player does not provide never reaches anything: reported with the blocked ones.
      if (
        e.type === 'diagnostic' &&
        e.diagnostic.code === 'story/host-error' &&
        /provides no function/.test(e.diagnostic.message)
      )
        for (const l of entry.netListeners)
          l({
            alias: '',
            outcome: 'blocked',
            code: 'story/host-error',
            message: `The story called ${e.diagnostic.message.replace(/^the host provides no function /, '')}, which this player does not provide.`,
          })
    }),
  )

  const config = readTabBar(m)
  if (config) {
    const listeners = new Set<() => void>()
    cleanups.push(
      ctx.onEvent((e) => {
        if (e.type === 'pause' || e.type === 'end') for (const l of listeners) l()
      }),
    )
    // The bar's code (and its capture tools) is loaded only for the stories that have a bar.
    let unmountBar: (() => void) | undefined
    let gone = false
    const sensors = entry.sensors
    void import('./tab-bar')
      .then(({ mountTabBar }) => {
        if (gone) return
        unmountBar = mountTabBar(ctx.slots.tabBar, {
          pkg: ctx.pkg,
          config,
          variables: ctx.variables,
          onChange(l) {
            listeners.add(l)
            return () => listeners.delete(l)
          },
          sensors,
          storage: safeStorage(),
        })
      })
      .catch((e) => console.error('the tab bar could not be loaded', e))
    cleanups.push(() => {
      gone = true
      unmountBar?.()
    })
  }

  return () => {
    for (const c of cleanups.splice(0)) c()
    for (const el of added.splice(0)) el.remove()
    const p = prepared.get(ctx.pkg)
    p?.net.close()
    p?.sensors?.stop()
    prepared.delete(ctx.pkg)
  }
}

/**
 * The envelope's part: notes on the reader-facing fields, the action that opens a story's instruction, the stories
 * an instruction covers. `undefined` when there is nothing to say.
 */
export function envelopeFeatures(
  manifest: Manifest | undefined,
  openPackage: (source: PackageSource) => Promise<void> = openByRoute,
): HTMLElement | undefined {
  return envelopeBlock(manifest, { apiBase: apiBase(), origin: location.origin, openPackage })
}

/** Opens a package address on its own page (`#/url/<address>`, the player's route for package URLs). */
async function openByRoute(source: PackageSource): Promise<void> {
  if (source.kind === 'url') location.hash = `#/url/${encodeURIComponent(source.url)}`
  else if (source.kind === 'catalog') location.hash = `#/story/${encodeURIComponent(source.slug)}`
}

function safeStorage(): Storage | undefined {
  try {
    return localStorage
  } catch {
    return undefined
  }
}
