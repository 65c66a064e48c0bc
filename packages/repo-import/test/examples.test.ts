import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { exampleAndReadme } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeHost, redirectTo, sendBytes, startFakeHost } from './fake-host'
import { hasTools } from './tools'
import { makeZipball, SHA, storyRepository } from './zipball'

const pkg = join(import.meta.dirname, '..')
let host: FakeHost

beforeAll(async () => {
  if (hasTools) host = await startFakeHost()
})
afterAll(() => host?.close())

describe('the README example', () => {
  it.skipIf(!hasTools)('runs against a repository host and prints what its comments say', async () => {
    host.api.routes.set('/repos/owner/story/zipball/v1.2', redirectTo(`https://${host.download.host}/tag`))
    host.download.routes.set('/tag', sendBytes(makeZipball(storyRepository(), { comment: SHA })))
    const run = (url: string) =>
      promisify(execFile)(
        process.execPath,
        [
          '--conditions=@spkg/source',
          '--import',
          'tsx',
          'examples/import.ts',
          url,
          host.api.host,
          host.download.host,
        ],
        {
          cwd: pkg,
          encoding: 'utf8',
          timeout: 30_000,
          env: { ...process.env, NODE_EXTRA_CA_CERTS: host.caFile, SPKG_REPO_ALLOW_PRIVATE_ADDRESSES: '1' },
        },
      )
    const ok = await run('https://github.com/owner/story/tree/v1.2')
    expect(ok.stdout).toBe(`v1.2 ${SHA} The Inn\n# Inn\nYou push the door of the inn.\n\n`)
    const refused = await run('https://github.com/owner/story/tree/v1.2?x')
    expect(refused.stdout).toMatch(/^repo\/invalid-url: not a repository URL \(a query or fragment/)
  })

  it('is the same code as in the README', () => {
    const { example, readme } = exampleAndReadme(pkg, 'examples/import.ts')
    expect(readme).toContain(example)
  })
})
