import { execFileSync } from 'node:child_process'

/** True when `zip`, `openssl` and `git` can run (the fake host's certificate and zipballs need them; CI has them). */
export const hasTools = ['zip', 'openssl', 'git'].every((tool) => {
  try {
    execFileSync(tool, [tool === 'zip' ? '-v' : 'version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})
