/**
 * Hash routes only (`#/`, `#/story/<slug>`, `#/open`, `#/play`, ...): the server serves `/` and the built assets and
 * never collides with the API's `/api/*`, `/catalog/*`, `/files/*`.
 *
 * A pattern is a path with `:name` segments (`/story/:slug`); a leading `#` is ignored. The first matching route
 * renders into the outlet; the function it returns (if any) runs when the route is left.
 */

/** Values of the `:name` segments (decoded), and the query after `?` in the hash. */
export interface RouteParams {
  [name: string]: string | undefined
}

/** Renders a route into `outlet`; may return a clean-up function (or a promise of one). */
export type RouteRender = (
  outlet: HTMLElement,
  params: RouteParams,
  query: URLSearchParams,
) => void | (() => void) | Promise<undefined | (() => void)>

interface Route {
  parts: string[]
  render: RouteRender
}

const routes: Route[] = []

function split(path: string): string[] {
  return path.replace(/^#/, '').split('/').filter(Boolean)
}

/** Adds a route. Later registrations of the same pattern win over earlier ones. */
export function registerRoute(pattern: string, render: RouteRender): void {
  routes.unshift({ parts: split(pattern), render })
}

/** Finds the route of a hash (`#/story/inn?x=1`): its render, params and query; undefined when none matches. */
export function matchRoute(
  hash: string,
): { render: RouteRender; params: RouteParams; query: URLSearchParams } | undefined {
  const raw = hash.replace(/^#/, '') || '/'
  const q = raw.indexOf('?')
  const path = q < 0 ? raw : raw.slice(0, q)
  const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1))
  const segs = split(path)
  for (const r of routes) {
    if (r.parts.length !== segs.length) continue
    const params: RouteParams = {}
    let ok = true
    r.parts.forEach((p, i) => {
      const s = segs[i] as string
      if (p.startsWith(':')) {
        try {
          params[p.slice(1)] = decodeURIComponent(s)
        } catch {
          ok = false
        }
      } else if (p !== s) ok = false
    })
    if (ok) return { render: r.render, params, query }
  }
  return undefined
}

/** Navigates to a hash route (`navigate('/story/inn')`). */
export function navigate(path: string): void {
  const target = `#${path.startsWith('/') ? path : `/${path}`}`
  if (location.hash === target) void renderCurrent()
  else location.hash = target
}

let outletEl: HTMLElement | undefined
let cleanup: (() => void) | undefined
let generation = 0
let notFound: RouteRender = (outlet) => {
  outlet.textContent = 'This page does not exist.'
}

async function renderCurrent(): Promise<void> {
  const outlet = outletEl
  if (!outlet) return
  const gen = ++generation
  const done = cleanup
  cleanup = undefined
  try {
    done?.()
  } catch (e) {
    console.error(e)
  }
  outlet.replaceChildren()
  const m = matchRoute(location.hash)
  const result = await (m ? m.render(outlet, m.params, m.query) : notFound(outlet, {}, new URLSearchParams()))
  if (typeof result === 'function') {
    if (gen === generation) cleanup = result
    else result()
  }
}

/** Whether the current route was left since `gen` (`currentGeneration()` taken when a render started). */
export function currentGeneration(): number {
  return generation
}

/** Starts routing into `outlet` (renders the current hash now and on every change). */
export function startRouter(outlet: HTMLElement, options: { notFound?: RouteRender } = {}): void {
  outletEl = outlet
  if (options.notFound) notFound = options.notFound
  addEventListener('hashchange', () => void renderCurrent())
  void renderCurrent()
}
