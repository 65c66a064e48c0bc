/** The player's entry: layout, routes, account area. */
import './styles.css'
import { mountAccount } from './account/index'
import { h } from './lib/dom'
import { registerRoute, startRouter } from './router'
import { renderHome } from './views/home'

// The catalog needs none of the reader, the story engine or the state library: the views that open and play
// stories load with their first use (a separate chunk), so the first visit fetches less.
const stories = () => import('./views/story-view')
registerRoute('/', renderHome)
registerRoute('/open', async (outlet) => (await import('./views/open-view')).renderOpen(outlet))
registerRoute('/play', async (outlet, p, q) => (await stories()).renderOpenedPlay(outlet, p, q))
registerRoute('/story/:slug', async (outlet, p) =>
  (await stories()).renderCatalogStory(outlet, p.slug ?? '', false),
)
registerRoute('/story/:slug/play', async (outlet, p) =>
  (await stories()).renderCatalogStory(outlet, p.slug ?? '', true),
)
registerRoute('/url/:url', async (outlet, p) => (await stories()).renderUrlStory(outlet, p.url ?? '', false))
registerRoute('/url/:url/play', async (outlet, p) =>
  (await stories()).renderUrlStory(outlet, p.url ?? '', true),
)

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
