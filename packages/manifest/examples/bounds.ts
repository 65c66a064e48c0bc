import { checkManifestBounds, parseManifestText } from '@spkg/manifest'

// A description of 20,000 characters: a reader takes it, the platform does not.
const text = JSON.stringify({ id: '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14', description: 'd'.repeat(20_000) })

console.log(parseManifestText(text).manifest?.description?.length) // 20000
const checked = parseManifestText(text, { bounds: checkManifestBounds })
console.log(checked.diagnostics.map((d) => `${d.code} ${d.field}`)) // [ 'manifest/too-long /description' ]
console.log(checked.manifest?.description) // undefined
