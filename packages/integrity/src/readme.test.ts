import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as encrypt from './encrypt'
import * as main from './index'
import * as node from './node'
import * as sign from './sign'

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('the README API section', () => {
  // `keyFingerprint(pub) === manifest.signature` is always false when keyFingerprint returns a
  // Promise the README does not mention: every async export must say so where it is described.
  const entries = {
    '@spkg/integrity': main,
    '@spkg/integrity/node': node,
    '@spkg/integrity/encrypt': encrypt,
    '@spkg/integrity/sign': sign,
  }
  for (const [entry, mod] of Object.entries(entries)) {
    const asyncNames = Object.entries(mod)
      .filter(([, v]) => typeof v === 'function' && v.constructor.name === 'AsyncFunction')
      .map(([k]) => k)
    it.each(asyncNames)(`says that ${entry}'s %s returns a Promise`, (name) => {
      const described = new RegExp(`\`${escapeRegExp(name)}\\([^\`]*\\): Promise<`)
      const flagged = new RegExp(`\`${escapeRegExp(name)}\` \\(async\\)`)
      expect(described.test(readme) || flagged.test(readme), `${name} in README.md`).toBe(true)
    })
  }
})
