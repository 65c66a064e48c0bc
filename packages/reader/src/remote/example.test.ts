import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { buildPackage } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { staticServer, type TestServer } from '../../test/helpers/range-servers'

const pkgDir = join(import.meta.dirname, '../..')
const filler = (seed: number) => {
  let s = seed
  return Array.from({ length: 80_000 }, () => {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    return String.fromCharCode(97 + ((s >>> 0) % 26))
  }).join('')
}

describe('the README progressive-loading example', () => {
  let server: TestServer & { dir: string }
  beforeAll(async () => {
    server = await staticServer({
      'the-inn.spkg': buildPackage({
        manifest: { title: 'The Inn', loading: 'progressive' },
        parts: {
          'story/0001-inn.sty': `You push the door of the inn.\n${filler(1)}\n`,
          'story/0002-forest.sty': `The trees lean closer.\n${filler(2)}\n`,
          'story/0003-end.sty': `The end.\n${filler(3)}\n`,
        },
        integrity: true,
      }),
    })
  })
  afterAll(() => server.close())

  it('runs and prints what its comments say', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--conditions=@spkg/source',
        '--import',
        'tsx',
        'examples/progressive.ts',
        `${server.base}/the-inn.spkg`,
      ],
      { cwd: pkgDir, encoding: 'utf8' },
    )
    expect(stdout.split('\n')).toEqual([
      "[ 'story/0001-inn.sty' ]",
      'part-loading story/0002-forest.sty',
      'part-loaded story/0002-forest.sty',
      'The trees lean closer.',
      '',
    ])
  })

  it('is the same code as in the README', () => {
    const readme = readFileSync(join(pkgDir, 'README.md'), 'utf8')
    expect(readme).toContain(readFileSync(join(pkgDir, 'examples/progressive.ts'), 'utf8').trim())
  })
})
