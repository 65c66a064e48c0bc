import { execFileSync } from 'node:child_process'

/** True when `zip` and `openssl` can run (the fake host's certificate and zipballs need them; CI has both). */
export const hasTools = ['zip', 'openssl'].every((tool) => {
  try {
    execFileSync(tool, [tool === 'zip' ? '-v' : 'version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})
