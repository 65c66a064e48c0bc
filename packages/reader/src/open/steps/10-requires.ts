/**
 * Step 10, `requires`: every host-extension namespace the story needs must be one the embedder
 * registered (`hostNamespaces`); otherwise the load is refused (`pkg/unsupported-requires`,
 * fatal), naming the namespace.
 */
import { createDiagnostic, type Diagnostic, type Manifest } from '@spkg/manifest'
import { MANIFEST_PATH } from './03-layout'

/** Pushes one finding per required namespace the host has not registered. */
export function checkRequires(
  manifest: Manifest | undefined,
  hostNamespaces: readonly string[] | undefined,
  diagnostics: Diagnostic[],
): void {
  const registered = new Set(hostNamespaces ?? [])
  for (const ns of manifest?.requires ?? [])
    if (!registered.has(ns))
      diagnostics.push(
        createDiagnostic(
          'pkg/unsupported-requires',
          `The story requires the host-extension namespace "${ns}", which this host has not registered.`,
          { path: MANIFEST_PATH, field: '/requires' },
        ),
      )
}
