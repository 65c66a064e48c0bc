/** The `spkg-language-server` command: `spkg-language-server --stdio`. */
import process from 'node:process'
import { startLanguageServer } from '../node.ts'

if (process.argv.includes('--help')) {
  process.stdout.write('usage: spkg-language-server --stdio | --node-ipc | --socket=<port>\n')
} else {
  startLanguageServer()
}
