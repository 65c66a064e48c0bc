/**
 * GENERATED from `CODES` by src/codes-doc.ts (`pnpm --filter @spkg/manifest generate`): do not
 * edit. The default severity of every code that is not an error, without the descriptions.
 */
import type { Severity } from '../severity'
import type { DiagnosticCode } from './index'

const NOT_ERROR = /* @__PURE__ */ new Map(
  Object.entries({
    fatal:
      'manifest/not-json manifest/not-object manifest/missing-id manifest/too-large manifest/too-deep session/not-json session/not-object pkg/not-zip pkg/corrupt-archive pkg/corrupt-entry pkg/header-mismatch pkg/overlapping-entries pkg/unexpected-data pkg/split-archive pkg/unsupported-entry pkg/too-many-entries pkg/too-large pkg/unsafe-path pkg/invalid-name pkg/duplicate-entry pkg/wrapped-layout pkg/no-entry pkg/missing-extension pkg/unsupported-requires pkg/fetch-failed pkg/remote-changed pkg/cache-failed pkg/secret-key pkg/integrity-mismatch pkg/integrity-missing-file pkg/integrity-malformed pkg/key-required pkg/decrypt-failed repo/invalid-url repo/not-found repo/rate-limited repo/fetch-failed repo/timeout repo/redirect-refused repo/address-refused repo/unexpected-layout',
    warning:
      'manifest/invalid-id manifest/unknown-version manifest/progressive-only session/invalid-name pkg/trailing-padding pkg/cp437-name pkg/mixed-layout pkg/misplaced-file pkg/text-bom pkg/generated-id pkg/no-cover pkg/deflated-media pkg/integrity-excluded-entry pkg/signature-unsupported pkg/untrusted-key story/unreachable story/tag-text story/dedented-body story/fall-through story/ink-syntax story/id-before-jump story/repeated-default story/session-name story/shadowing story/unused-variable story/exhausted-group story/resume-diverged story/tunnel-end state/inconsistent state/storage-unavailable',
    info: 'manifest/normalized manifest/unknown-field pkg/ignored-entry pkg/pack-rewritten-field pkg/unreferenced-file pkg/non-canonical-manifest story/implicit-ids state/other-version repo/ignored-file',
  }).flatMap(([severity, codes]) => codes.split(' ').map((code) => [code, severity as Severity] as const)),
)

/** The default severity of `code` (the `severity` of its `CODES` row). */
export const severityOf = (code: DiagnosticCode): Severity => NOT_ERROR.get(code) ?? 'error'
