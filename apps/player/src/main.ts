/** The player's entry: layout, routes, account area. */
import './styles.css'
import { mountAccount } from './account/index'
import { h } from './lib/dom'
import { registerRoute, startRouter } from './router'
import { renderHome } from './views/home'
import { renderOpen } from './views/open-view'
import { renderCatalogStory, renderOpenedPlay, renderUrlStory } from './views/story-view'

registerRoute('/', renderHome)
registerRoute('/open', renderOpen)
registerRoute('/play', renderOpenedPlay)
registerRoute('/story/:slug', (outlet, p) => renderCatalogStory(outlet, p.slug ?? '', false))
registerRoute('/story/:slug/play', (outlet, p) => renderCatalogStory(outlet, p.slug ?? '', true))
registerRoute('/url/:url', (outlet, p) => renderUrlStory(outlet, p.url ?? '', false))
registerRoute('/url/:url/play', (outlet, p) => renderUrlStory(outlet, p.url ?? '', true))

const header = document.getElementById('site-header') as HTMLElement
const main = document.getElementById('main') as HTMLElement
try {
  mountAccount(header)
} catch (e) {
  console.error('account area failed', e)
}
startRouter(main, {
  notFound: (outlet) => {
    outlet.append(
      h('h1', null, 'Page not found'),
      h('p', null, 'There is nothing at this address. ', h('a', { href: '#/' }, 'Back to the catalog')),
    )
  },
})
