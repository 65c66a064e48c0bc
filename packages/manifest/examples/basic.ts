import { hasErrors, parseManifest, serializeManifest } from '@spkg/manifest'

// What an author really writes: bare strings for parts, assets and the author.
const { manifest, diagnostics } = parseManifest({
  id: '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14',
  title: 'The Crooked Inn',
  author: 'Ann Author',
  language: 'en',
  parts: ['story/0001-inn.sty', 'story/0002-forest-edge.sty'],
  assets: ['assets/cover.webp'],
  age: { min: 12, max: 8 },
})

console.log(manifest?.parts)
// [ { file: 'story/0001-inn.sty', name: 'Inn' },
//   { file: 'story/0002-forest-edge.sty', name: 'Forest edge' } ]
console.log(diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.code} ${d.field}`))
// [ 'manifest/invalid-age /age' ]
console.log(hasErrors(diagnostics)) // true
console.log(serializeManifest(manifest!).split('\n')[1]) //   "id": "6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14",
