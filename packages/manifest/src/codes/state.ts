import { defineCodes } from './types'

/** Codes of reading state, save and resume (owned by @spkg/state). */
export const STATE_CODES = defineCodes({
  'state/not-json': { severity: 'error', description: 'a saved reading state is not valid JSON' },
  'state/not-object': { severity: 'error', description: 'a saved reading state is not a JSON object' },
  'state/unknown-format': {
    severity: 'error',
    description: 'a saved reading state has no `format` or one this library does not read',
  },
  'state/invalid': {
    severity: 'error',
    description: 'a field of a saved reading state has the wrong type or an impossible value',
  },
  'state/other-story': {
    severity: 'error',
    description: 'a saved reading state belongs to another story `id`',
  },
  'state/other-version': {
    severity: 'info',
    description:
      'a saved reading state was made with another package version; resume replays it as far as it matches',
  },
  'state/inconsistent': {
    severity: 'warning',
    description:
      'a saved reading state contradicts itself (for example a choice outside `visitedChoiceGroups`)',
  },
  'state/storage-failed': {
    severity: 'error',
    description: 'the storage behind a state store could not be read or written',
  },
  'state/storage-unavailable': {
    severity: 'warning',
    description: 'the storage the manifest asks for is not available here; a fallback is used',
  },
  'state/conflict': {
    severity: 'error',
    description:
      'a save lost a race: the stored state changed since it was loaded (another device saved first)',
  },
})
