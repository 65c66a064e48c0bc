/**
 * A project's own rules for `spkg validate`, as linters have: `--rule <code>=off|info|warning|error`
 * (repeatable) and `spkg.config.json` beside the manifest (`{"rules": {...}, "maxWarnings": n}`),
 * or for a package file the nearest one above it or above the current directory, the command line
 * winning. Fatal codes cannot be changed: a reader refuses such a package whatever
 * the project thinks.
 */
import { access, readFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { CODES, type Diagnostic, type DiagnosticCode, isDiagnosticCode } from '@spkg/manifest'
import { IOFailure, UsageError } from '../cli-types'
import { CONFIG_FILE_NAME } from '../pack/read-folder'

/** What a rule may set a code to. */
export type RuleLevel = 'off' | 'info' | 'warning' | 'error'
const LEVELS: readonly RuleLevel[] = ['off', 'info', 'warning', 'error']

/** The validator settings of a project. */
export interface ValidateRules {
  rules: Map<DiagnosticCode, RuleLevel>
  maxWarnings?: number
}

function checkRule(code: string, level: unknown, where: string): [DiagnosticCode, RuleLevel] {
  if (!isDiagnosticCode(code))
    throw new UsageError(`${where}: '${code}' is not a diagnostic code (see docs/diagnostic-codes.md)`)
  if (typeof level !== 'string' || !LEVELS.includes(level as RuleLevel))
    throw new UsageError(`${where}: the level of '${code}' must be off, info, warning or error`)
  if (CODES[code].severity === 'fatal')
    throw new UsageError(
      `${where}: '${code}' is fatal (a reader refuses such a package), so its severity cannot be changed`,
    )
  return [code, level as RuleLevel]
}

function checkMaxWarnings(value: unknown, where: string): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw new UsageError(`${where} must be a whole number of 0 or more`)
  return n
}

/** The `--rule` values (`code=level`), in order; a later one wins. */
export function parseRuleOptions(values: unknown): Map<DiagnosticCode, RuleLevel> {
  const rules = new Map<DiagnosticCode, RuleLevel>()
  const list = values === undefined ? [] : Array.isArray(values) ? values : [values]
  for (const v of list) {
    const m = typeof v === 'string' ? /^([^=]+)=(.*)$/.exec(v) : null
    if (!m) throw new UsageError(`--rule '${String(v)}': write --rule <code>=off|info|warning|error`)
    const [code, level] = checkRule((m[1] as string).trim(), (m[2] as string).trim(), '--rule')
    rules.set(code, level)
  }
  return rules
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  )
}

/**
 * The `spkg.config.json` that applies to a package that is not a folder, found as linters find
 * theirs: the nearest one in `start` or a folder above it, the search ending at the repository
 * root (the first folder holding `.git`) or the filesystem root. Each of `starts` is searched in
 * turn (the folder of the package file, then the current directory); the first file found wins.
 * Nothing inside the package is ever read.
 */
export async function findConfigFile(starts: readonly string[]): Promise<string | undefined> {
  for (const start of starts) {
    for (let dir = start; ; dir = dirname(dir)) {
      const path = join(dir, CONFIG_FILE_NAME)
      if (await exists(path)) return path
      if (dirname(dir) === dir || (await exists(join(dir, '.git')))) break
    }
  }
  return undefined
}

/** The rules of `spkg.config.json` in `folder`, or none when there is no such file. */
export async function readConfigFile(folder: string): Promise<ValidateRules> {
  return readConfigPath(join(folder, CONFIG_FILE_NAME), CONFIG_FILE_NAME)
}

/** The rules of the config file at `path` (`shown` names it in errors), or none when it is absent. */
async function readConfigPath(path: string, shown: string): Promise<ValidateRules> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { rules: new Map() }
    throw new IOFailure(`cannot read ${shown}: ${(e as Error).message}`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw new UsageError(`${shown} is not valid JSON: ${(e as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`${shown} must hold a JSON object`)
  const { rules, maxWarnings, ...rest } = value as Record<string, unknown>
  const unknown = Object.keys(rest).filter((k) => k !== '$schema')
  if (unknown.length > 0)
    throw new UsageError(`${shown}: unknown field '${unknown[0]}' (known: rules, maxWarnings)`)
  const out: ValidateRules = { rules: new Map() }
  if (rules !== undefined) {
    if (typeof rules !== 'object' || rules === null || Array.isArray(rules))
      throw new UsageError(`${shown}: "rules" must map codes to off, info, warning or error`)
    for (const [code, level] of Object.entries(rules)) {
      const [c, l] = checkRule(code, level, shown)
      out.rules.set(c, l)
    }
  }
  if (maxWarnings !== undefined) out.maxWarnings = checkMaxWarnings(maxWarnings, `${shown}: "maxWarnings"`)
  return out
}

/** Where the project's settings are looked for: a story folder, or a package from elsewhere. */
export type ConfigPlace = { folder: string } | { packageFile?: string; cwd: string }

/**
 * The project's settings, then the command line over them: a story folder's `spkg.config.json`
 * beside its manifest; for a package file, the nearest one from the file's folder up, then from
 * the current directory up (see {@link findConfigFile}).
 */
export async function resolveRules(
  place: ConfigPlace,
  values: Record<string, unknown>,
): Promise<ValidateRules> {
  let config: ValidateRules = { rules: new Map<DiagnosticCode, RuleLevel>() }
  if ('folder' in place) config = await readConfigFile(place.folder)
  else if ('cwd' in place) {
    const starts = place.packageFile ? [dirname(place.packageFile), place.cwd] : [place.cwd]
    const path = await findConfigFile(starts)
    if (path) {
      const rel = relative(place.cwd, path)
      config = await readConfigPath(path, rel.startsWith('..') ? path : rel)
    }
  }
  for (const [code, level] of parseRuleOptions(values.rule)) config.rules.set(code, level)
  if (values['max-warnings'] !== undefined)
    config.maxWarnings = checkMaxWarnings(values['max-warnings'], '--max-warnings')
  return config
}

/** The diagnostics with the rules applied: `off` ones dropped, others at their new severity. */
export function applyRules(diagnostics: readonly Diagnostic[], rules: ValidateRules['rules']): Diagnostic[] {
  if (rules.size === 0) return [...diagnostics]
  const out: Diagnostic[] = []
  for (const d of diagnostics) {
    const level = d.severity === 'fatal' ? undefined : rules.get(d.code)
    if (level === 'off') continue
    out.push(level === undefined || level === d.severity ? d : { ...d, severity: level })
  }
  return out
}
