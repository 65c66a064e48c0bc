/**
 * The five-part story of the progressive-loading tests, with parts large enough that the server's
 * log tells which parts' data was requested.
 */

/** Text that does not compress much: `length` characters make nearly as many bytes in the archive. */
export function prose(seed: number, length: number): string {
  let s = seed
  let out = ''
  while (out.length < length) {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    out += String.fromCharCode(97 + ((s >>> 0) % 26))
    if ((s & 7) === 0) out += ' '
  }
  return `${out}\n`
}

/** The story's five parts (inn, cellar, forest, tower, end), each a first line then `length` characters of prose. */
export function innParts(length: number): Record<string, string> {
  return {
    'story/0001-inn.sty': `You push the door of the inn.\n${prose(1, length)}`,
    'story/0002-cellar.sty': `The cellar smells of wine.\n${prose(2, length)}`,
    'story/0003-forest.sty': `The trees lean closer.\n${prose(3, length)}`,
    'story/0004-tower.sty': `The tower door is sealed.\n${prose(4, length)}`,
    'story/0005-end.sty': `The end.\n${prose(5, length)}`,
  }
}
