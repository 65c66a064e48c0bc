/**
 * Every `spkg` command, in the order `spkg --help` lists them. Add a command by writing
 * `commands/<name>.ts` and listing it here.
 */
import type { Command } from '../cli-types'
import { keygen } from './keygen'
import { manifestCheck, manifestNormalize } from './manifest'

export const COMMANDS: readonly Command[] = [manifestCheck, manifestNormalize, keygen]
