/**
 * The `spkg` binary: wires the process streams into `main` and sets the exit code.
 */
import process from 'node:process'
import { main } from './cli'

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  cwd: process.cwd(),
  env: process.env,
})
