import type { Diagnostic } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { checkRequires } from './10-requires'

const check = (requires: string[] | undefined, hostNamespaces?: string[]) => {
  const out: Diagnostic[] = []
  checkRequires(requires ? { id: 'x', requires } : undefined, hostNamespaces, out)
  return out.map((d) => [d.code, d.severity, d.message])
}

describe('step 10: requires', () => {
  it('refuses each namespace the host has not registered, naming it', () => {
    expect(check(['host', 'maps'], ['host'])).toEqual([
      [
        'pkg/unsupported-requires',
        'fatal',
        'The story requires the host-extension namespace "maps", which this host has not registered.',
      ],
    ])
    expect(check(['host'])).toHaveLength(1)
  })

  it('accepts registered namespaces, no requires and a flat archive', () => {
    expect(check(['host'], ['host', 'other'])).toEqual([])
    expect(check([])).toEqual([])
    expect(check(undefined)).toEqual([])
  })
})
