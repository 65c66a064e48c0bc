import { openPackage } from '@spkg/reader'
import { strToU8, zipSync } from 'fflate'

// A tiny package built in memory; normally the bytes come from a file, a fetch or an <input type=file>.
const bytes = zipSync({
  'manifest.json': strToU8(
    JSON.stringify({
      id: '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14',
      title: 'The Crooked Inn',
      parts: ['story/0001-inn.sty', 'story/0002-forest-edge.sty'],
    }),
  ),
  'story/0001-inn.sty': strToU8('You push the door of the inn.\n'),
  'story/0002-forest-edge.sty': strToU8('The trees lean closer.\n'),
})

const result = await openPackage(bytes)
if (result.ok) {
  const pkg = result.package
  console.log(pkg.manifest?.title, pkg.layout, pkg.entry) // The Crooked Inn packaged story/0001-inn.sty
  console.log(pkg.parts) // [ 'story/0001-inn.sty', 'story/0002-forest-edge.sty' ]
  console.log(await pkg.readText(pkg.entry)) // You push the door of the inn.
  pkg.close()
}

// A hostile archive is refused with a stable code, never thrown at you.
const evil = await openPackage(zipSync({ '../../etc/evil.sty': strToU8('x') }))
console.log(
  evil.ok,
  evil.diagnostics.map((d) => d.code),
) // false [ 'pkg/unsafe-path' ]
