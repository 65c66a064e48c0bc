/**
 * The player's whole DOM layer: `h(tag, attrs, ...children)` builds an element. No UI library (README: bundle size,
 * and every node is made with `createElement`, never from HTML text, so nothing a package says becomes markup).
 */

/** What `h` accepts as a child: nodes, text, and nothing (skipped), nested in arrays. */
export type Child = Node | string | number | null | undefined | false | readonly Child[]

/** Attributes: strings (and numbers) are set as attributes, `true` sets an empty one, `false`/null/undefined skip it;
 * `on<event>` functions become listeners. */
export type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>

/** Appends children (flattened; text as text nodes) to `parent`. */
export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue
    if (Array.isArray(c)) append(parent, ...(c as Child[]))
    else if (c instanceof Node) parent.appendChild(c)
    else parent.appendChild(document.createTextNode(String(c)))
  }
}

/** Creates an element with attributes, listeners and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K]
export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement
export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag)
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue
      if (typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v)
      else el.setAttribute(k, v === true ? '' : String(v))
    }
  }
  append(el, ...children)
  return el
}

/** Replaces every child of `el`. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren()
  append(el, ...children)
}

/** Whether the reader asked for less motion. */
export function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches
}
