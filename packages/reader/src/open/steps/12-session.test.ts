import type { Diagnostic } from '@spkg/manifest'
import { buildPackage } from '@spkg/test-utils'
import { readZipDirectory } from '@spkg/zip'
import { describe, expect, it } from 'vitest'
import { nodeBackend } from '../../node/backend'
import { EntryStore, FileIndex } from '../entry-store'
import { readSession } from './12-session'

function sessionOf(session?: string | Record<string, unknown>) {
  const bytes = buildPackage(session === undefined ? {} : { session })
  const store = new EntryStore(bytes, new FileIndex(readZipDirectory(bytes).directory!.entries), nodeBackend)
  const out: Diagnostic[] = []
  return { session: readSession(store, out), codes: out.map((d) => d.code) }
}

describe('step 12: session.json', () => {
  it('reads the session values', () => {
    expect(sessionOf({ players: 2, mode: 'duo' })).toEqual({
      session: { players: 2, mode: 'duo' },
      codes: [],
    })
  })

  it('has none without the file, and reports one that is not JSON', () => {
    expect(sessionOf()).toEqual({ session: undefined, codes: [] })
    expect(sessionOf('{"a": [1,')).toMatchObject({ session: undefined, codes: ['session/not-json'] })
  })
})
