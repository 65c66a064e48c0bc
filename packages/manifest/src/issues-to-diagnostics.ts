/**
 * Turns zod issues (as the compiled validators report them, exactly zod's) into project
 * diagnostics with JSON pointers and plain-word messages.
 */
import type { DiagnosticCode } from './codes'
import type { Issue } from './compiled/issues'
import type { Diagnostic } from './diagnostic'
import { toPointer } from './diagnostic'
import { createDiagnostic } from './diagnostic-helpers'
import { describeJsonType, jsonText } from './json'

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<PropertyKey, unknown>)[key]
  }
  return v
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  object: 'an object',
  array: 'an array',
  record: 'an object',
}

/** Describes one zod issue in plain words, given the value it was about. */
function describeIssue(issue: Issue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return `is required (${EXPECTED[issue.expected!] ?? issue.expected})`
      return `must be ${EXPECTED[issue.expected!] ?? issue.expected}, got ${describeJsonType(value)}`
    case 'invalid_value':
      return `must be one of ${issue.values!.map((v) => JSON.stringify(v)).join(', ')}, got ${jsonText(value) ?? describeJsonType(value)}`
    case 'too_small':
      return issue.origin === 'string' ? 'must not be empty' : `must be at least ${String(issue.minimum)}`
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`
    case 'invalid_union':
      return `has the wrong type (${describeJsonType(value)})`
    case 'invalid_format':
      return `is not in the expected format (${issue.format})`
    default:
      return issue.message
  }
}

/**
 * Converts the issues of validating `value` (found at `base` inside `root`) into diagnostics.
 * `codeFor` picks the code; by default type errors are `manifest/invalid-type`, others `manifest/invalid-value`.
 */
export function issuesToDiagnostics(
  issues: readonly Issue[],
  root: unknown,
  base: readonly (string | number)[],
  options: {
    path?: string
    codeFor?: (issue: Issue) => DiagnosticCode | undefined
    describe?: (issue: Issue) => string | undefined
  } = {},
): Diagnostic[] {
  return issues.map((issue) => {
    const segments = [...base, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))]
    const pointer = toPointer(segments)
    const value = valueAt(root, segments)
    const code =
      options.codeFor?.(issue) ??
      (issue.code === 'invalid_type' || issue.code === 'invalid_union'
        ? 'manifest/invalid-type'
        : 'manifest/invalid-value')
    const label = segments.length ? `"${pointer.slice(1)}"` : 'the value'
    return createDiagnostic(code, `${label} ${options.describe?.(issue) ?? describeIssue(issue, value)}.`, {
      path: options.path,
      field: pointer,
    })
  })
}
