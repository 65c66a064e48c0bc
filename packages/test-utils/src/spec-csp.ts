/**
 * The Content Security Policy of SPEC.md ("Response security headers"), written once for the
 * tests that need it exactly: the API's header test and the reader's browser test under that
 * policy.
 */

/** The hosts a deployment fills into the SPEC's policy. */
export interface SpecCspHosts {
  readonly authUrl: string
  readonly filesUrl: string
  readonly errorsUrl: string
  readonly fontCssHost: string
  readonly fontHost: string
}

/** The example deployment's hosts (the API's test configuration uses the same). */
export const EXAMPLE_CSP_HOSTS: SpecCspHosts = {
  authUrl: 'https://id.example.org',
  filesUrl: 'https://files.example.org',
  errorsUrl: 'https://errors.example.org',
  fontCssHost: 'https://fonts.googleapis.com',
  fontHost: 'https://fonts.gstatic.com',
}

/** The SPEC's policy with `hosts` filled in, as the `Content-Security-Policy` header value. */
export function specCsp(hosts: SpecCspHosts = EXAMPLE_CSP_HOSTS): string {
  const { authUrl, filesUrl, errorsUrl, fontCssHost, fontHost } = hosts
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'unsafe-inline' ${fontCssHost}`,
    `font-src 'self' ${fontHost}`,
    `img-src 'self' data: blob: ${filesUrl}`,
    `connect-src 'self' ${authUrl} ${filesUrl} ${errorsUrl}`,
    `frame-src 'self' ${authUrl}`,
    "frame-ancestors 'self'",
    "object-src 'none'",
    "worker-src 'self' blob:",
    "base-uri 'self'",
    "form-action 'self'",
    'upgrade-insecure-requests',
    'report-uri /api/csp-report',
    'report-to csp-endpoint',
  ].join(';')
}
