import { buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { nodeBackend } from '../../node/backend'
import { visibleFiles } from '../files'
import { prepareOpening } from '../open-archive'
import type { Opening } from '../opening'
import { loadExtensions } from './09-extensions'

async function modulesOf(bytes: Uint8Array) {
  const o = (await prepareOpening(bytes, {}, nodeBackend, false)) as Opening
  const before = o.diagnostics.length
  const modules = loadExtensions(o, visibleFiles(o.directory))
  return {
    paths: modules.map((m) => m.path),
    sources: modules.map((m) => m.source),
    found: o.diagnostics.slice(before).map((d) => [d.code, d.field]),
  }
}

const extensions = {
  'extensions/b.xty': 'fn b() {}',
  'extensions/a.xty': 'fn a() {}',
  'extensions/Z.xty': 'fn z() {}',
}

describe('step 9: extension modules', () => {
  it('loads every .xty by code point without manifest.extensions', async () => {
    expect(await modulesOf(buildPackage({ extensions }))).toEqual({
      paths: ['extensions/Z.xty', 'extensions/a.xty', 'extensions/b.xty'],
      sources: ['fn z() {}', 'fn a() {}', 'fn b() {}'],
      found: [],
    })
  })

  it('loads the listed modules in the manifest order only, and refuses a missing one', async () => {
    const listed = buildPackage({
      manifest: { extensions: ['extensions/b.xty', 'extensions/a.xty'] },
      extensions,
    })
    expect((await modulesOf(listed)).paths).toEqual(['extensions/b.xty', 'extensions/a.xty'])
    const missing = buildPackage({
      manifest: { extensions: ['extensions/gone.xty', 'extensions/a.xty'] },
      extensions,
    })
    expect(await modulesOf(missing)).toMatchObject({
      paths: ['extensions/a.xty'],
      found: [['pkg/missing-extension', '/extensions/0']],
    })
  })
})
