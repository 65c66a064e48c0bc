/**
 * Every `spkg` command, in the order `spkg --help` lists them. Add a command by writing
 * `commands/<name>.ts` and listing it here.
 */
import type { Command } from '../cli-types'
import { decrypt } from './decrypt'
import { encrypt } from './encrypt'
import { init } from './init'
import { inspect } from './inspect'
import { keygen } from './keygen'
import { manifestCheck, manifestNormalize } from './manifest'
import { map } from './map'
import { pack } from './pack'
import { play } from './play'
import { sign } from './sign'
import { unminify } from './unminify'
import { update } from './update'
import { validate } from './validate'
import { verify } from './verify'

export const COMMANDS: readonly Command[] = [
  init,
  validate,
  pack,
  sign,
  verify,
  keygen,
  encrypt,
  decrypt,
  inspect,
  play,
  map,
  unminify,
  update,
  manifestCheck,
  manifestNormalize,
]
