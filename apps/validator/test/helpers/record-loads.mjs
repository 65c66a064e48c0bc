/**
 * `node --import ./record-loads.mjs ...`: appends the URL of every module the process loads to the
 * file named by SPKG_RECORD_LOADS, one per line (a loader hook; the hook thread writes the file
 * synchronously, so nothing is lost when the process exits). Used to check that `spkg --help`
 * loads no command's work and no heavy dependency.
 */
import { register } from 'node:module'

register('./record-loads-hooks.mjs', {
  parentURL: import.meta.url,
  data: { file: process.env.SPKG_RECORD_LOADS },
})
