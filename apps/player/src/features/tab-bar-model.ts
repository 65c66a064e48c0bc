/**
 * The reader tab bar's logic (`manifest.reader.tabBar`), with no DOM: which sections show, in which order for which
 * hand, their labels and icons, and the story variables an author exposes to them. The DOM is tab-bar.ts; what each
 * section shows and how an author exposes variables is docs/tab-bar.md.
 */
import {
  isPlainObject,
  isVariableName,
  type JsonValue,
  type Manifest,
  TAB_BAR_SECTIONS,
} from '@spkg/manifest'

/** A section of the bar, closest to the thumb first in `TAB_BAR_SECTIONS`. */
export type SectionName = (typeof TAB_BAR_SECTIONS)[number]

/** The hand holding the device: its edge of the bar is the closest. */
export type Hand = 'left' | 'right'

/** `priorityHand`: a fixed hand, or `reader` (the reader's own handedness setting). */
export type PriorityHand = 'reader' | Hand

/** A story variable an author shows in a section (`variables: [{name, label}]` or `variables: ["name"]`). */
export interface ExposedVariable {
  name: string
  label: string
}

/** One enabled section, read from the manifest with its defaults filled in. */
export interface SectionConfig {
  name: SectionName
  label: string
  /** Text or an emoji, or an archive path of an image (`iconIsPath`). */
  icon: string
  iconIsPath: boolean
  /** Story variables the section shows, in the author's order. */
  variables: ExposedVariable[]
  /** Free text the author wrote for the section (help: the in-story help; any section may have one). */
  text?: string
  /** help: hints, shown one after another as the reader asks for the next. */
  hints: string[]
  /** map: the archive path of the map image, and its alternative text. */
  image?: string
  alt?: string
  /** actions: which capture actions the author asks for. */
  qrScan: boolean
  photo: boolean
  audio: boolean
}

/** The bar as the player shows it. */
export interface TabBarConfig {
  priorityHand: PriorityHand
  /** Enabled sections, closest to the thumb first (the SPEC's fixed order). */
  sections: SectionConfig[]
}

/** Labels and icons of the sections when the author gives none. */
export const SECTION_DEFAULTS: Record<SectionName, { label: string; icon: string }> = {
  actions: { label: 'Actions', icon: '⚡' },
  character: { label: 'Character', icon: '👤' },
  bag: { label: 'Bag', icon: '🎒' },
  map: { label: 'Map', icon: '🗺' },
  help: { label: 'Help', icon: '?' },
}

/** Where the reader's handedness setting is remembered (localStorage). */
export const HANDEDNESS_KEY = 'spkg-player:handedness'

const MAX_LABEL = 40
const MAX_TEXT = 4000
const MAX_VARIABLES = 32
const MAX_HINTS = 32

const str = (v: unknown, max: number): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : undefined

/** Reads `variables` of a section: objects `{name, label?}` or bare names; names a story cannot read are left out. */
export function readVariables(v: unknown): ExposedVariable[] {
  if (!Array.isArray(v)) return []
  const out: ExposedVariable[] = []
  const seen = new Set<string>()
  for (const item of v) {
    const name = typeof item === 'string' ? item : isPlainObject(item) ? item.name : undefined
    if (typeof name !== 'string' || !isVariableName(name) || seen.has(name)) continue
    seen.add(name)
    const label = (isPlainObject(item) ? str(item.label, MAX_LABEL) : undefined) ?? humanize(name)
    out.push({ name, label })
    if (out.length >= MAX_VARIABLES) break
  }
  return out
}

/** `crew_name` → `Crew name`. */
export function humanize(name: string): string {
  const s = name.replace(/[_-]+/g, ' ').trim()
  return s.charAt(0).toUpperCase() + s.slice(1)
}

const IMAGE_PATH = /^assets\/[^\s]+\.(png|jpe?g|gif|webp|avif|svg)$/i

/** One section of the manifest, or undefined when it is absent or not enabled (`enabled: true` opts it in). */
export function readSection(name: SectionName, raw: unknown): SectionConfig | undefined {
  if (!isPlainObject(raw) || raw.enabled !== true) return undefined
  const icon = str(raw.icon, 200)
  const hints = Array.isArray(raw.hints)
    ? raw.hints
        .map((x) => str(x, MAX_TEXT))
        .filter((x): x is string => !!x)
        .slice(0, MAX_HINTS)
    : []
  const section: SectionConfig = {
    name,
    label: str(raw.label, MAX_LABEL) ?? SECTION_DEFAULTS[name].label,
    icon: icon ?? SECTION_DEFAULTS[name].icon,
    iconIsPath: !!icon && IMAGE_PATH.test(icon),
    variables: readVariables(raw.variables),
    hints,
    qrScan: name === 'actions' && raw.qrScan === true,
    photo: name === 'actions' && raw.photo === true,
    audio: name === 'actions' && raw.audio === true,
  }
  const text = str(raw.text, MAX_TEXT)
  if (text) section.text = text
  const image = str(raw.image, 1000)
  if (name === 'map' && image) section.image = image
  const alt = str(raw.alt, 1000)
  if (alt) section.alt = alt
  return section
}

/**
 * The bar of a manifest: undefined when `reader.tabBar.enabled` is not true or no section is enabled. Sections come
 * closest to the thumb first, in the SPEC's fixed order, whatever order the manifest writes them in.
 */
export function readTabBar(manifest: Manifest | undefined): TabBarConfig | undefined {
  const bar = manifest?.reader?.tabBar
  if (bar?.enabled !== true) return undefined
  const sections = TAB_BAR_SECTIONS.map((n) => readSection(n, (bar as Record<string, unknown>)[n])).filter(
    (s): s is SectionConfig => !!s,
  )
  if (!sections.length) return undefined
  const hand = bar.priorityHand
  return { priorityHand: hand === 'left' || hand === 'right' ? hand : 'reader', sections }
}

/** The hand that decides the closest edge: the manifest's, or the reader's setting for `reader`. */
export function effectiveHand(priority: PriorityHand, readerSetting: Hand): Hand {
  return priority === 'reader' ? readerSetting : priority
}

/**
 * The sections from the left edge to the right edge of the bar (the DOM and Tab order). The closest section sits at
 * the edge of the holding hand: leftmost for the left hand, rightmost for the right hand.
 */
export function orderForHand<T>(closestFirst: readonly T[], hand: Hand): T[] {
  return hand === 'left' ? [...closestFirst] : [...closestFirst].reverse()
}

/** The reader's remembered handedness (`right` when none or unreadable). */
export function loadHandedness(storage: Pick<Storage, 'getItem'> | undefined): Hand {
  try {
    return storage?.getItem(HANDEDNESS_KEY) === 'left' ? 'left' : 'right'
  } catch {
    return 'right'
  }
}

/** Remembers the reader's handedness; a storage that refuses (private mode, quota) is ignored. */
export function saveHandedness(storage: Pick<Storage, 'setItem'> | undefined, hand: Hand): void {
  try {
    storage?.setItem(HANDEDNESS_KEY, hand)
  } catch {}
}

/** A story value as a reader reads it: lists joined by `, `, booleans yes/no, maps as `key: value`. */
export function formatValue(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return '—'
  if (typeof v === 'boolean') return v ? 'yes' : 'no'
  if (typeof v === 'number') return Object.is(v, -0) ? '0' : String(v)
  if (typeof v === 'string') return v === '' ? '—' : v
  if (Array.isArray(v)) return v.length ? v.map((x) => formatValue(x)).join(', ') : 'none'
  const entries = Object.entries(v)
  return entries.length ? entries.map(([k, x]) => `${k}: ${formatValue(x)}`).join(', ') : 'none'
}

/** The values of a section's variables now, label → printed value, in the author's order. */
export function sectionValues(
  section: SectionConfig,
  variables: Record<string, JsonValue>,
): Array<{ name: string; label: string; value: string; set: boolean }> {
  return section.variables.map((v) => ({
    name: v.name,
    label: v.label,
    value: formatValue(Object.hasOwn(variables, v.name) ? variables[v.name] : undefined),
    set: Object.hasOwn(variables, v.name),
  }))
}
