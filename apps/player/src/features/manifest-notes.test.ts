import type { Manifest } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import {
  formatReaders,
  isCooperative,
  manifestNotes,
  readerCounts,
  roleCount,
  soloMode,
} from './manifest-notes'

const m = (fields: Record<string, unknown>) => ({ id: 'x', ...fields }) as unknown as Manifest

describe('manifest notes', () => {
  it('says nothing for a plain story', () => {
    expect(manifestNotes(undefined)).toEqual([])
    expect(manifestNotes(m({ readers: [1], offline: false, preview: false }))).toEqual([])
  })

  it('notes every reader-facing field, in the envelope order', () => {
    const notes = manifestNotes(
      m({
        type: 'instruction',
        preview: true,
        readers: [2, 3, 4],
        offline: true,
        accessibility: ['screen-reader', 'high_contrast'],
        allowed_urls: [{ alias: 'w', url: 'https://api.example.org/x' }],
        sensors: ['geolocation', 'barometer'],
      }),
    )
    expect(notes.map((n) => [n.kind, n.badge])).toEqual([
      ['instruction', 'Guide'],
      ['preview', 'Sample'],
      ['cooperative', 'Cooperative'],
      ['offline', 'Plays offline'],
      ['accessibility', 'Accessibility'],
      ['network', 'Uses the network'],
      ['sensors', 'Sensors'],
    ])
    const text = Object.fromEntries(notes.map((n) => [n.kind, n.text]))
    expect(text.cooperative).toBe(
      'A cooperative story for 2–4 readers. One reader may play all the roles on this device.',
    )
    expect(text.accessibility).toBe('Accessibility: screen reader, high contrast.')
    expect(text.network).toContain('api.example.org (“w”)')
    expect(text.sensors).toContain('your location, barometer')
  })

  it('reads readers and solo_mode', () => {
    expect(readerCounts(m({ readers: [3, 1, 3, 0, 2.5, 2] }))).toEqual([1, 2, 3])
    expect(isCooperative(m({ readers: [1] }))).toBe(false)
    expect(isCooperative(m({ readers: [1, 2] }))).toBe(true)
    expect(soloMode(m({}))).toBe('all_roles')
    expect(soloMode(m({ solo_mode: 'single_role' }))).toBe('single_role')
    expect(soloMode(m({ solo_mode: 'odd' }))).toBe('all_roles')
    expect(roleCount(m({ readers: [2, 4] }))).toBe(4)
    expect(roleCount(m({}))).toBe(1)
    expect(formatReaders([2])).toBe('2 readers')
    expect(formatReaders([1])).toBe('1 reader')
    expect(formatReaders([1, 3, 5])).toBe('1, 3 or 5 readers')
    expect(manifestNotes(m({ readers: [2], solo_mode: 'single_role' }))[0]!.text).toContain(
      'you choose yours',
    )
  })
})
