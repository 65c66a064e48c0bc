/**
 * WebCrypto as a browser without Ed25519 has it (Chrome/Edge before 137, Firefox before 129,
 * Safari before 17): `importKey` refuses the algorithm and passes every other key on.
 */

/** Whether a WebCrypto algorithm argument names Ed25519. */
export function isEd25519Algorithm(alg: unknown): boolean {
  return (typeof alg === 'string' ? alg : (alg as { name?: string } | null)?.name) === 'Ed25519'
}

/**
 * An `importKey` that rejects Ed25519 with the `NotSupportedError` older browsers throw and calls
 * `importKey` (the real one, bound) for the rest. Install it with a spy
 * (`vi.spyOn(crypto.subtle, 'importKey').mockImplementation(importKeyWithoutEd25519(real))`).
 */
export function importKeyWithoutEd25519(importKey: SubtleCrypto['importKey']): SubtleCrypto['importKey'] {
  return ((...args: Parameters<SubtleCrypto['importKey']>) =>
    isEd25519Algorithm(args[2])
      ? Promise.reject(new DOMException('Unrecognized name.', 'NotSupportedError'))
      : (importKey as (...a: unknown[]) => Promise<CryptoKey>)(...args)) as SubtleCrypto['importKey']
}
