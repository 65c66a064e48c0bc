/** `#/open`: a .spkg from this device (file picker or drag and drop, nothing uploaded), a package URL, a repository. */
import { h } from '../lib/dom'
import { openSource } from '../play/open'
import { navigate } from '../router'
import { refusal } from './envelope'
import { setCurrent } from './story-view'

export function renderOpen(outlet: HTMLElement): () => void {
  const result = h('div', { class: 'open-result', 'aria-live': 'polite' })
  let busy = false
  const openFile = async (file: File) => {
    if (busy) return
    busy = true
    result.replaceChildren(h('p', { class: 'loading', role: 'status' }, `Opening ${file.name}…`))
    try {
      const r = await openSource({ kind: 'file', file })
      if (!r.ok) {
        result.replaceChildren(refusal(r.diagnostics, `“${file.name}”`))
        ;(result.querySelector('h1') as HTMLElement | null)?.focus()
        return
      }
      setCurrent(r.story)
      navigate('/play?envelope=1')
    } finally {
      busy = false
    }
  }
  const input = h('input', {
    type: 'file',
    id: 'open-file',
    accept: '.spkg,.zip,application/zip',
    onchange: (e: Event) => {
      const f = (e.target as HTMLInputElement).files?.[0]
      if (f) void openFile(f)
    },
  })
  const drop = h(
    'div',
    { class: 'drop-zone', 'data-drop': '' },
    h('label', { for: 'open-file' }, 'Choose a .spkg file'),
    input,
    h('p', null, 'or drop it here. The file stays on this device: nothing is uploaded.'),
  )
  const onDragOver = (e: DragEvent) => {
    e.preventDefault()
    drop.classList.add('over')
  }
  const onDragLeave = () => drop.classList.remove('over')
  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    drop.classList.remove('over')
    const f = e.dataTransfer?.files?.[0]
    if (f) void openFile(f)
  }
  // The whole page accepts a drop while this view shows.
  document.addEventListener('dragover', onDragOver)
  document.addEventListener('dragleave', onDragLeave)
  document.addEventListener('drop', onDrop)

  const urlInput = h('input', {
    type: 'url',
    id: 'open-url',
    name: 'url',
    required: true,
    placeholder: 'https://…/story.spkg',
  })
  const urlForm = h(
    'form',
    {
      class: 'open-form',
      onsubmit: (e: Event) => {
        e.preventDefault()
        const url = urlInput.value.trim()
        if (url) navigate(`/url/${encodeURIComponent(new URL(url, location.href).href)}`)
      },
    },
    h('label', { for: 'open-url' }, 'Package address'),
    urlInput,
    h('button', { type: 'submit' }, 'Open'),
  )
  const repoInput = h('input', {
    type: 'url',
    id: 'open-repo',
    name: 'repo',
    required: true,
    placeholder: 'https://github.com/owner/story',
  })
  const repoForm = h(
    'form',
    {
      class: 'open-form',
      onsubmit: async (e: Event) => {
        e.preventDefault()
        const url = repoInput.value.trim()
        if (!url || busy) return
        busy = true
        result.replaceChildren(h('p', { class: 'loading', role: 'status' }, 'Loading the repository…'))
        try {
          const r = await openSource({ kind: 'repo', url })
          if (!r.ok) {
            result.replaceChildren(refusal(r.diagnostics, 'This repository'))
            return
          }
          setCurrent(r.story)
          navigate('/play?envelope=1')
        } finally {
          busy = false
        }
      },
    },
    h('label', { for: 'open-repo' }, 'Repository address'),
    repoInput,
    h('button', { type: 'submit' }, 'Load'),
  )
  outlet.append(
    h(
      'section',
      { class: 'open-view' },
      h('h1', null, 'Open a story'),
      drop,
      h('h2', null, 'From an address'),
      urlForm,
      h('h2', null, 'From a repository'),
      repoForm,
      result,
    ),
  )
  return () => {
    document.removeEventListener('dragover', onDragOver)
    document.removeEventListener('dragleave', onDragLeave)
    document.removeEventListener('drop', onDrop)
  }
}
