/**
 * The contexts CORE hands to FEATURES' hooks (src/features/index.ts): `prepareStart` before a story starts and
 * `mountPlayFeatures` once it plays. FEATURES may add optional fields here.
 */
import type { JsonValue, Manifest } from '@spkg/manifest'
import type { SpkgPackage } from '@spkg/reader'
import type { HostFunctions, StoryEvent, StoryRun } from '@spkg/story'

/** Where a package comes from: what `openPackage(source)` of the play view accepts. */
export type PackageSource =
  | { kind: 'file'; file: File }
  | { kind: 'bytes'; bytes: Uint8Array; name: string }
  | { kind: 'url'; url: string }
  | { kind: 'catalog'; slug: string }
  | { kind: 'repo'; url: string }

/** Given to `prepareStart` before the story starts (nothing has run yet). */
export interface StartContext {
  /** The opened, verified package. */
  pkg: SpkgPackage
  /** Its manifest (undefined for a flat archive). */
  manifest: Manifest | undefined
  /** `session.json` values, when the package has the file. */
  session: Record<string, JsonValue> | undefined
  /** True when a saved reading state will be resumed (session settings are then already fixed). */
  resuming: boolean
  /** An empty element inside the play view where a form may be shown; emptied once the story starts. */
  container: HTMLElement
}

/** What `prepareStart` returns: the values the story starts with. */
export interface StartOptions {
  /** Session values injected into the story's variable space (override session.json and the story defaults). */
  session?: Record<string, JsonValue>
  /** Host functions by namespace (`{call ns.f()}`), e.g. the `allowed_urls` network guard. */
  host?: HostFunctions
  /** True: the reader cancelled; the story does not start. */
  cancelled?: boolean
}

/** The play view's slots FEATURES fills. */
export interface PlaySlots {
  /** Bottom bar (manifest.reader.tabBar). */
  tabBar: HTMLElement
  /** Badges next to the title (preview, offline, accessibility, cooperative). */
  badges: HTMLElement
  /** Actions row (e.g. open the instruction package). */
  actions: HTMLElement
}

/** Given to `mountPlayFeatures` once the story plays. */
export interface PlayContext {
  pkg: SpkgPackage
  manifest: Manifest | undefined
  /** The running story (do not `choose` on it: the play view answers pauses). */
  run: StoryRun
  /** The story variables now (from the run's reading state). */
  variables(): Record<string, JsonValue>
  /** Subscribes to every event the play view receives from the run (blocks, pauses, end, ...). Returns unsubscribe. */
  onEvent(listener: (event: StoryEvent) => void): () => void
  slots: PlaySlots
  /** Opens another package (e.g. the linked instruction) as its own package, with its envelope. */
  openPackage(source: PackageSource): Promise<void>
}
