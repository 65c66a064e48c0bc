/** Test helper: what `loadConfig` says is wrong with an environment, one line a problem. */
import { ConfigError, loadConfig } from '../../src/config'

/** The issues `loadConfig(env)` refuses `env` with; none when it loads. */
export function configIssues(env: Record<string, string>): string[] {
  try {
    loadConfig(env)
  } catch (err) {
    if (err instanceof ConfigError) return err.issues
    throw err
  }
  return []
}
