/**
 * The `spkg` binary: wires the process streams into `main` and sets the exit code.
 */
import process from 'node:process'
import { main } from './cli'

// Output piped into a reader that stops early (`spkg inspect x.spkg | head`): end quietly, as other tools do.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e
    process.exit(process.exitCode ?? 0)
  })

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  cwd: process.cwd(),
  env: process.env,
})
