/**
 * The entry of the repository's `pnpm spkg` script (the sources, through tsx). pnpm runs a root
 * script from the repository root and records the directory the user ran pnpm from in `INIT_CWD`:
 * going back there first makes `pnpm spkg validate ./inn` resolve paths as the user typed them,
 * from any directory. The published `spkg` binary (`bin.ts`) never does this.
 */
import process from 'node:process'

const from = process.env.INIT_CWD
if (from) {
  try {
    process.chdir(from)
  } catch {
    // The directory is gone or unreadable: stay at the repository root.
  }
}
await import('./bin')
