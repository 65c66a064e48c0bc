/**
 * Messages between the validation pool and its worker (leaf file: both import it).
 */
import type { Diagnostic } from '@spkg/manifest'

/** One validation job: the uploaded file and the keys that make a signature `verified`. */
export interface ValidationJob {
  file: string
  trustedKeys: string[]
  /** Cover extensions the storage accepts. */
  coverTypes: string[]
  /**
   * Who asked (the uploader's `sub`): the pool holds at most one job per user, running or waiting (a second is
   * refused with 429 `VALIDATION_IN_PROGRESS`). Absent: the job counts for nobody (the start-up seed).
   */
  user?: string
}

/** What the worker found. */
export interface ValidationOutcome {
  loads: boolean
  valid: boolean
  type: 'story' | 'instruction' | null
  layout: 'packaged' | 'flat' | null
  /** The canonical manifest (JSON), or null. */
  manifest: Record<string, unknown> | null
  /** At most `DEFAULT_MAX_DIAGNOSTICS` (200) findings, the most severe kept: the worker posts no more. */
  diagnostics: Diagnostic[]
  /** The findings left out of `diagnostics`, counted (absent when none were). */
  omitted?: { count: number; byCode: Record<string, number> }
  signature: { status: 'verified' | 'unverified' | 'unsigned'; fingerprint?: string }
  /** Per-file SHA-256 (hex): the manifest's own map, else computed from the files. */
  integrity: Record<string, string>
  cover: { ext: string; bytes: Uint8Array; sha256: string } | null
}
