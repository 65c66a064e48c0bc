/**
 * How a stored version is shown by the API: the addresses of its files and its fields, shared by
 * the version routes, the catalog queries and the purge of withdrawn files.
 */
import { type FileStorage, packageKey } from '../storage/create-storage'
import type { VersionRow } from './versions'

/** The address a client downloads a stored file from. */
export function fileUrl(storage: FileStorage, publicUrl: string, key: string): string {
  return storage.publicUrl(key) ?? `${publicUrl}/files/${key}`
}

/** A version row as the API shows it. */
export function versionView(
  row: Omit<VersionRow, 'manifest'>,
  storage: FileStorage,
  publicUrl: string,
  publishedVersionId: string | null,
) {
  return {
    version: row.version,
    type: row.type as 'story' | 'instruction',
    sha256: row.sha256,
    size: row.size,
    signature: row.signature as 'verified' | 'unverified' | 'unsigned',
    signer: row.signer,
    warnings: row.warnings as never[],
    published: row.id === publishedVersionId,
    package: packageRef(row, storage, publicUrl),
    cover: row.coverKey ? fileUrl(storage, publicUrl, row.coverKey) : null,
    source: {
      kind: row.source as 'upload' | 'repository',
      url: row.sourceUrl,
      ref: row.sourceRef,
      commit: row.sourceCommit,
    },
    uploadedAt: new Date(row.createdAt).toISOString(),
  }
}

/** `{url, sha256, size, version, signature}` of a version's package. */
export function packageRef(
  row: Pick<VersionRow, 'sha256' | 'size' | 'version' | 'signature'>,
  storage: FileStorage,
  publicUrl: string,
) {
  return {
    url: fileUrl(storage, publicUrl, packageKey(row.sha256)),
    sha256: row.sha256,
    size: row.size,
    version: row.version,
    signature: row.signature as 'verified' | 'unverified' | 'unsigned',
  }
}
