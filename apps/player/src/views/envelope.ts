/** The envelope: what a reader sees of a package before it starts, and the refusal of a package that did not open. */
import type { Diagnostic, Manifest } from '@spkg/manifest'
import { envelopeFeatures } from '../features/index'
import { formatAge, formatDuration } from '../lib/catalog-model'
import { h } from '../lib/dom'
import { explainCode } from '../lib/explain'
import { isFingerprint } from '../lib/trust'
import { type OpenedStory, storyTitle } from '../play/open'

/** What the envelope says about the publisher: one of the SPEC's notices. */
export function publisherNotice(story: OpenedStory): {
  kind: 'verified' | 'unverified' | 'unsigned'
  text: string
} {
  const sig = story.pkg.signature
  const platformVerified = story.catalog?.signature === 'verified'
  if (sig.status === 'verified')
    return { kind: 'verified', text: `Publisher verified (key ${sig.fingerprint ?? 'trusted'}).` }
  if (sig.status === 'unverified') {
    if (platformVerified)
      return {
        kind: 'verified',
        text: 'Publisher verified by the platform: the signature matches a key the uploader registered.',
      }
    return {
      kind: 'unverified',
      text: 'Publisher unverified: this package is signed, but the signature could not be checked against a key this player trusts. The story loads; read it only if you trust where it came from.',
    }
  }
  return { kind: 'unsigned', text: 'This package is not signed: its publisher is not known.' }
}

function authorsOf(m: Manifest | undefined): string {
  return (m?.author ?? [])
    .map((a) => a.name)
    .filter(Boolean)
    .join(', ')
}

function row(label: string, value: string | undefined | false): HTMLElement | undefined {
  if (!value) return undefined
  return h('div', { class: 'meta-row' }, h('dt', null, label), h('dd', null, value))
}

/** Renders the envelope of an opened story. `actions` are the buttons (Start, Continue, ...). */
/** The signature diagnostics: shown in the publisher notice, not as problems of the package. */
const SIGNATURE_CODES: ReadonlySet<string> = new Set([
  'pkg/signature-missing',
  'pkg/signature-malformed',
  'pkg/signature-mismatch',
  // not expected here: the player passes the Ed25519 fallback (play/open.ts)
  'pkg/signature-unsupported',
])

export function envelope(
  story: OpenedStory,
  actions: HTMLElement[],
  options: { onTrust?: (fingerprint: string) => void } = {},
): HTMLElement {
  const { pkg } = story
  const m = pkg.manifest
  const title = storyTitle(story)
  const coverUrl = m?.cover ? pkg.mediaUrl(m.cover) : undefined
  const notice = publisherNotice(story)
  const sigCodes = pkg.diagnostics.filter((d) => SIGNATURE_CODES.has(d.code)).map((d) => d.code)
  const problems = pkg.diagnostics.filter((d) => d.severity === 'error' && !SIGNATURE_CODES.has(d.code))
  const age = formatAge(m?.age?.min, m?.age?.max)
  return h(
    'article',
    {
      class: 'envelope',
      'aria-labelledby': 'envelope-title',
      ...(m?.language ? { lang: m.language } : {}),
      dir: m?.direction === 'rtl' ? 'rtl' : 'ltr',
    },
    coverUrl ? h('img', { class: 'cover', src: coverUrl, alt: `Cover of ${title}` }) : undefined,
    h(
      'div',
      { class: 'envelope-body' },
      h('h1', { id: 'envelope-title', tabindex: '-1' }, title),
      authorsOf(m) ? h('p', { class: 'authors' }, `by ${authorsOf(m)}`) : undefined,
      m?.intro ? h('p', { class: 'intro' }, m.intro) : undefined,
      h(
        'dl',
        { class: 'meta' },
        row('Duration', m?.duration !== undefined && formatDuration(m.duration)),
        row('Age', age),
        row('Content warnings', m?.content_warnings?.length ? m.content_warnings.join(', ') : undefined),
        row('Licence', m?.license),
        row('Language', m?.language),
        row('Genre', m?.genre),
        row('Version', m?.version),
      ),
      h(
        'p',
        { class: `publisher publisher-${notice.kind}`, role: notice.kind === 'unverified' ? 'alert' : null },
        notice.text,
        sigCodes.length ? h('span', { class: 'codes' }, ` (${sigCodes.join(', ')})`) : undefined,
      ),
      notice.kind === 'unverified' && options.onTrust && isFingerprint(m?.signature)
        ? h(
            'p',
            { class: 'trust' },
            h(
              'button',
              { type: 'button', onclick: () => options.onTrust?.(m?.signature as string) },
              'Trust this publisher on this device',
            ),
            ' ',
            h(
              'span',
              { class: 'fingerprint' },
              `Key ${m?.signature}: compare it with the one the publisher gives.`,
            ),
          )
        : undefined,
      problems.length
        ? h(
            'details',
            { class: 'problems' },
            h('summary', null, `${problems.length} problem${problems.length > 1 ? 's' : ''} in this package`),
            h(
              'ul',
              null,
              problems.map((d) => h('li', null, h('code', null, d.code), ' ', d.message)),
            ),
          )
        : undefined,
      envelopeFeatures(m),
      h('div', { class: 'envelope-actions' }, actions),
    ),
  )
}

/** Renders why a package was refused, in plain words, with its codes. */
export function refusal(diagnostics: readonly Diagnostic[], what = 'This package'): HTMLElement {
  const fatal = diagnostics.filter((d) => d.severity === 'fatal')
  const shown = fatal.length ? fatal : diagnostics
  const codes = [...new Set(shown.map((d) => d.code))]
  return h(
    'section',
    { class: 'refusal', role: 'alert', 'aria-labelledby': 'refusal-title' },
    h('h1', { id: 'refusal-title', tabindex: '-1' }, `${what} could not be opened`),
    h(
      'ul',
      null,
      codes.map((c) => h('li', null, explainCode(c))),
    ),
    h(
      'details',
      { open: true },
      h('summary', null, 'Details'),
      h(
        'ul',
        { class: 'diagnostics' },
        shown.map((d) =>
          h('li', null, h('code', { class: 'code' }, d.code), ': ', d.message, d.path ? ` (${d.path})` : ''),
        ),
      ),
    ),
  )
}
