/** One block of the story as DOM: headings, paragraphs with emphasis, media from `blob:` URLs. */
import type { SpkgPackage } from '@spkg/reader'
import type { Block } from '@spkg/story'
import { h } from '../lib/dom'

/** Styled runs as inline nodes (`<strong>`, `<em>`, link text marked). */
function runs(block: Block): Node[] {
  if (!block.runs.length) return [document.createTextNode(block.text)]
  return block.runs.map((r) => {
    let node: Node = document.createTextNode(r.text)
    if (r.link) node = h('span', { class: 'story-link', 'data-target': r.link }, node)
    if (r.em) node = h('em', null, node)
    if (r.strong) node = h('strong', null, node)
    return node
  })
}

/** The element of a block; `seen` blocks (scroll-back of a resume) get no entrance animation. */
export function renderBlock(block: Block, pkg: SpkgPackage, seen: boolean): HTMLElement {
  const cls = `block block-${block.kind}${seen ? ' seen' : ' fresh'}`
  const tags = block.tags.length ? block.tags.join(' ') : null
  if (block.kind === 'heading') {
    const level = Math.min(6, Math.max(2, (block.level ?? 1) + 1))
    return h(`h${level}`, { class: cls, 'data-tags': tags, tabindex: '-1' }, ...runs(block))
  }
  if (block.kind === 'media' && block.path) {
    const url = pkg.mediaUrl(block.path)
    if (!url)
      return h(
        'p',
        { class: `${cls} media-missing`, tabindex: '-1' },
        `[missing media: ${block.text || block.path}]`,
      )
    if (block.media === 'audio')
      return h(
        'figure',
        { class: cls, tabindex: '-1' },
        h('audio', { controls: true, src: url, preload: 'metadata', 'aria-label': block.text || 'Audio' }),
        block.text ? h('figcaption', null, block.text) : undefined,
      )
    if (block.media === 'video')
      return h(
        'figure',
        { class: cls, tabindex: '-1' },
        h('video', { controls: true, src: url, preload: 'metadata', 'aria-label': block.text || 'Video' }),
        block.text ? h('figcaption', null, block.text) : undefined,
      )
    return h(
      'figure',
      { class: cls, tabindex: '-1' },
      h('img', { src: url, alt: block.text, loading: 'lazy' }),
    )
  }
  return h('p', { class: cls, 'data-tags': tags, tabindex: '-1' }, ...runs(block))
}
