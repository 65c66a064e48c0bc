/** `#/`: the public catalog, with search and filters (text, genre, language, age), usable by keyboard alone. */
import { fetchCatalog } from '../lib/catalog'
import {
  type CatalogFilters,
  type CatalogStory,
  facets,
  filterCatalog,
  filtersFromQuery,
  filtersToQuery,
  formatAge,
  formatDuration,
} from '../lib/catalog-model'
import { h, replace } from '../lib/dom'
import { explainCode } from '../lib/explain'
import { currentGeneration } from '../router'

function card(s: CatalogStory): HTMLElement {
  const age = formatAge(s.ageMin, s.ageMax)
  const href = `#/story/${encodeURIComponent(s.slug)}`
  return h(
    'li',
    { class: 'story-card', 'data-slug': s.slug },
    h(
      'a',
      { class: 'card-link', href, lang: s.language || null, dir: s.direction },
      s.cover
        ? h('img', { class: 'card-cover', src: s.cover, alt: '', loading: 'lazy' })
        : h('div', { class: 'card-cover none', 'aria-hidden': 'true' }),
      h('h2', { class: 'card-title' }, s.title),
    ),
    h('p', { class: 'card-author' }, s.author ? `by ${s.author}` : ''),
    s.intro
      ? h('p', { class: 'card-intro', lang: s.language || null, dir: s.direction }, s.intro)
      : undefined,
    h(
      'dl',
      { class: 'card-meta' },
      s.genre ? [h('dt', null, 'Genre'), h('dd', null, s.genre)] : undefined,
      s.duration !== undefined
        ? [h('dt', null, 'Duration'), h('dd', null, formatDuration(s.duration))]
        : undefined,
      age ? [h('dt', null, 'Age'), h('dd', null, age)] : undefined,
      s.language ? [h('dt', null, 'Language'), h('dd', null, s.language)] : undefined,
      s.contentWarnings.length
        ? [h('dt', null, 'Content warnings'), h('dd', { class: 'warnings' }, s.contentWarnings.join(', '))]
        : undefined,
    ),
    s.preview ? h('span', { class: 'badge' }, 'Sample') : undefined,
  )
}

function select(id: string, label: string, values: string[], value: string, any: string) {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    h(
      'select',
      { id, name: id },
      h('option', { value: '' }, any),
      values.map((v) => h('option', { value: v, selected: v === value }, v)),
    ),
  )
}

export async function renderHome(outlet: HTMLElement, _p: unknown, query: URLSearchParams) {
  const abort = new AbortController()
  const gen = currentGeneration()
  const section = h('section', { class: 'home' }, h('h1', null, 'Stories'))
  const status = h('p', { class: 'loading', role: 'status', 'aria-live': 'polite' }, 'Loading the catalog…')
  section.append(status)
  outlet.append(section)
  let stories: CatalogStory[]
  try {
    stories = await fetchCatalog(abort.signal)
  } catch (e) {
    if (abort.signal.aborted || gen !== currentGeneration()) return
    status.textContent = `${explainCode('player/catalog-failed')} ${(e as Error).message}`
    status.setAttribute('role', 'alert')
    section.append(
      h('p', null, 'You can still ', h('a', { href: '#/open' }, 'open a story from a file'), '.'),
    )
    return () => abort.abort()
  }
  // The route was left while the catalog loaded (a sign-in callback going back to the reader's page): build
  // nothing, and above all write no `#/` over the new route's address (update() below replaces the hash).
  if (gen !== currentGeneration()) return
  const filters: CatalogFilters = filtersFromQuery(query)
  const { genres, languages } = facets(stories)
  const text = h('input', {
    type: 'search',
    id: 'q',
    name: 'q',
    value: filters.text,
    placeholder: 'Title, author, words…',
  })
  const age = h('input', {
    type: 'number',
    id: 'age',
    name: 'age',
    min: '0',
    max: '120',
    inputmode: 'numeric',
    value: filters.age,
  })
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Search the catalog' },
    h('div', { class: 'field grow' }, h('label', { for: 'q' }, 'Search'), text),
    select('genre', 'Genre', genres, filters.genre, 'Any genre'),
    select('lang', 'Language', languages, filters.language, 'Any language'),
    h('div', { class: 'field' }, h('label', { for: 'age' }, 'Reader’s age'), age),
  )
  const list = h('ul', { class: 'catalog', 'aria-label': 'Catalog' })
  const count = h('p', { class: 'count', role: 'status', 'aria-live': 'polite' })
  const update = () => {
    const f: CatalogFilters = {
      text: text.value,
      genre: (form.querySelector('#genre') as HTMLSelectElement).value,
      language: (form.querySelector('#lang') as HTMLSelectElement).value,
      age: age.value,
    }
    const shown = filterCatalog(stories, f)
    replace(list, shown.map(card))
    count.textContent = stories.length
      ? `${shown.length} of ${stories.length} ${stories.length === 1 ? 'story' : 'stories'}`
      : 'The catalog is empty.'
    const q = filtersToQuery(f)
    // Keep the filters in the address (shareable, back button) without re-rendering the route.
    history.replaceState(null, '', `#/${q ? `?${q}` : ''}`)
  }
  form.addEventListener('input', update)
  form.addEventListener('submit', (e) => e.preventDefault())
  status.remove()
  section.append(form, count, list)
  update()
  return () => abort.abort()
}
