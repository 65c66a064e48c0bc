import { describe, expect, it } from 'vitest'
import { openPackage } from '../index'

describe('a Blob or File that cannot be read', () => {
  class Unreadable extends File {
    override arrayBuffer(): Promise<ArrayBuffer> {
      return Promise.reject(new DOMException('The file could not be read.', 'NotReadableError'))
    }
  }

  it('is pkg/fetch-failed naming the file by its base name', async () => {
    const r = await openPackage(new Unreadable(['PK'], 'the-inn.spkg'))
    expect(r.diagnostics).toMatchObject([
      {
        code: 'pkg/fetch-failed',
        severity: 'fatal',
        message: 'The package file "the-inn.spkg" could not be read (The file could not be read.).',
      },
    ])
    const deep = await openPackage(new Unreadable(['PK'], '/home/ann/stories/the-inn.spkg'))
    expect(deep.diagnostics[0]!.message).toBe(
      'The package file "the-inn.spkg" could not be read (The file could not be read.).',
    )
  })

  it('is pkg/fetch-failed without a name for a plain Blob', async () => {
    const blob = new Blob(['PK'])
    blob.arrayBuffer = () => Promise.reject(new Error('gone'))
    const r = await openPackage(blob)
    expect(r.diagnostics[0]!.message).toBe('The package file could not be read (gone).')
  })
})
