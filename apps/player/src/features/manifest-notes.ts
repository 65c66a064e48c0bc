/**
 * What the reader-facing manifest fields say to a reader, with no DOM: badges and notes for the envelope and the play
 * view (`preview`, `offline`, `accessibility`, `readers` and `solo_mode`, `allowed_urls`, `sensors`, `type`).
 * docs/manifest-fields.md lists what the player does with each field.
 */
import type { Manifest } from '@spkg/manifest'
import { KNOWN_SENSORS, sensorPlan } from './sensors'
import { humanize } from './tab-bar-model'

/** One note: a short badge and the sentence behind it. */
export interface ManifestNote {
  kind: 'preview' | 'offline' | 'accessibility' | 'cooperative' | 'network' | 'sensors' | 'instruction'
  badge: string
  text: string
}

/** Supported reader counts: whole numbers of at least 1, sorted, once each. */
export function readerCounts(m: Manifest | undefined): number[] {
  const ok = (m?.readers ?? []).filter((n) => Number.isInteger(n) && n >= 1 && n <= 1000)
  return [...new Set(ok)].sort((a, b) => a - b)
}

/** True when any `readers` value is above 1. */
export function isCooperative(m: Manifest | undefined): boolean {
  return readerCounts(m).some((n) => n > 1)
}

/** `solo_mode`, default `all_roles`. */
export function soloMode(m: Manifest | undefined): 'all_roles' | 'single_role' {
  return m?.solo_mode === 'single_role' ? 'single_role' : 'all_roles'
}

/** `[2,3,4]` → `2–4 readers`; `[1,3]` → `1 or 3 readers`. */
export function formatReaders(counts: readonly number[]): string {
  if (!counts.length) return ''
  const first = counts[0]!
  const last = counts[counts.length - 1]!
  if (counts.length === 1) return `${first} reader${first > 1 ? 's' : ''}`
  if (last - first === counts.length - 1) return `${first}–${last} readers`
  return `${counts.slice(0, -1).join(', ')} or ${last} readers`
}

/** The roles a single-role reader chooses from: one per reader of the largest supported count. */
export function roleCount(m: Manifest | undefined): number {
  return Math.max(1, ...readerCounts(m))
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** Every note of a manifest, in the order the envelope shows them. */
export function manifestNotes(m: Manifest | undefined): ManifestNote[] {
  const out: ManifestNote[] = []
  if (!m) return out
  if (m.type === 'instruction')
    out.push({
      kind: 'instruction',
      badge: 'Guide',
      text: 'An instruction package: how to prepare and run the stories it covers.',
    })
  if (m.preview === true)
    out.push({
      kind: 'preview',
      badge: 'Sample',
      text: 'A preview build of this story: a sample that may stop before the full story does.',
    })
  if (isCooperative(m)) {
    const solo =
      soloMode(m) === 'single_role'
        ? 'Each reader plays one role: you choose yours before the story starts.'
        : 'One reader may play all the roles on this device.'
    out.push({
      kind: 'cooperative',
      badge: 'Cooperative',
      text: `A cooperative story for ${formatReaders(readerCounts(m))}. ${solo}`,
    })
  }
  if (m.offline === true)
    out.push({
      kind: 'offline',
      badge: 'Plays offline',
      text: 'Once opened, this story plays with no connection.',
    })
  if (m.accessibility?.length)
    out.push({
      kind: 'accessibility',
      badge: 'Accessibility',
      text: `Accessibility: ${m.accessibility.map((a) => humanize(a).toLowerCase()).join(', ')}.`,
    })
  if (m.allowed_urls?.length)
    out.push({
      kind: 'network',
      badge: 'Uses the network',
      text: `The story may contact only: ${m.allowed_urls.map((u) => `${hostOf(u.url)} (“${u.alias}”)`).join(', ')}. Anything else is blocked.`,
    })
  const { known, unknown } = sensorPlan(m.sensors)
  if (known.length || unknown.length)
    out.push({
      kind: 'sensors',
      badge: 'Sensors',
      text: `The story asks for: ${[...known.map((s) => KNOWN_SENSORS[s]!.label.toLowerCase()), ...unknown].join(', ')}. Nothing is used unless you agree before it starts.`,
    })
  return out
}
