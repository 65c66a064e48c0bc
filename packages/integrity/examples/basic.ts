/**
 * Publisher and reader round trip: hash files, write the checksum file, sign it, verify it with
 * a trusted key, check `manifest.integrity`, then encrypt and decrypt the archive bytes.
 * Run from the repository root: node --conditions=@spkg/source --import tsx packages/integrity/examples/basic.ts
 */
import {
  createChecksumFile,
  sha256Hex,
  verifyChecksums,
  verifyIntegrity,
  verifyPackageSignature,
} from '@spkg/integrity'
import { decryptPackage, encryptPackage, generateEncryptionKey } from '@spkg/integrity/encrypt'
import { generateSigningKeys, signChecksum } from '@spkg/integrity/sign'

export async function runExample(log: (line: string) => void = console.log): Promise<void> {
  const enc = new TextEncoder()
  const files = new Map<string, Uint8Array>([
    ['story/0001-start.sty', enc.encode('=== start ===\nHello.\n')],
    ['assets/cover.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47])],
  ])
  const integrity: Record<string, string> = {}
  for (const [path, bytes] of files) integrity[path] = await sha256Hex(bytes)

  // Publisher: key pair, manifest naming the signer, author.pub, checksum file, signature.
  const keys = await generateSigningKeys()
  const manifest = { id: 'demo', signed: true, signature: keys.fingerprint, integrity }
  files.set('manifest.json', enc.encode(JSON.stringify(manifest)))
  files.set('META-PKG/author.pub', enc.encode(keys.publicKeyText))
  const hashes = new Map<string, string>()
  for (const [path, bytes] of files) hashes.set(path, await sha256Hex(bytes))
  const checksum = createChecksumFile(hashes)
  files.set('META-PKG/checksum.sha256', checksum)
  files.set('META-PKG/signature.sig', enc.encode(await signChecksum(checksum, keys.secretKeyText)))
  log(`checksum lines: ${new TextDecoder().decode(checksum).trim().split('\n').length}`) // 4

  // Reader: recompute hashes once, then check integrity, checksums and the signature.
  log(`integrity: ${verifyIntegrity(hashes, manifest.integrity).length} problems`) // 0 problems
  log(`checksums: ${verifyChecksums(hashes, checksum).length} problems`) // 0 problems
  const trusted = await verifyPackageSignature({ files, manifest, trustedKeys: [keys.publicKeyText] })
  log(`signature: ${trusted.status}`) // verified
  const hintOnly = await verifyPackageSignature({ files, manifest })
  log(`without a trusted key: ${hintOnly.status} (${hintOnly.diagnostics[0]?.code})`) // untrusted (pkg/untrusted-key)

  // Encryption: whole archive, key out of band.
  const key = generateEncryptionKey()
  const archive = enc.encode('PK… the finished zip bytes')
  const sealed = await encryptPackage(archive, key)
  const opened = await decryptPackage(sealed, key)
  log(`encrypted ${archive.length} → ${sealed.length} bytes, decrypted ${opened.length}`) // 28 → 80, 28
  try {
    await decryptPackage(sealed, generateEncryptionKey())
  } catch (e) {
    log(`wrong key: ${(e as { code: string }).code}`) // pkg/decrypt-failed
  }
}

if (process.argv[1]?.endsWith('basic.ts')) await runExample()
