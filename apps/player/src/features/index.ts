/**
 * FEATURES' hooks (first version by CORE; FEATURES owns this file): what happens before a story starts and what is
 * mounted while it plays.
 */
import type { PlayContext, StartContext, StartOptions } from './context'

/** Before the story starts: session settings, sensors consent, solo mode. Resolves to the values to inject. */
export async function prepareStart(ctx: StartContext): Promise<StartOptions> {
  return ctx.session ? { session: ctx.session } : {}
}

/** Once the story plays: tab bar, badges, instruction action. Returns the unmount function. */
export function mountPlayFeatures(_ctx: PlayContext): () => void {
  return () => {}
}
