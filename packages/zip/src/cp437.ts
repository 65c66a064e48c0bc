/**
 * IBM code page 437, the encoding ZIP names use when the UTF-8 flag is clear (APPNOTE
 * appendix D). Only names that are not valid UTF-8 are read this way, with a warning.
 */
const HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0'

/**
 * Decodes CP437 bytes (bytes below 0x80 as ASCII, so control characters stay visible to the
 * name check).
 *
 * @example
 * decodeCp437(new Uint8Array([0x63, 0x61, 0x66, 0x82])) // 'café'
 */
export function decodeCp437(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += b < 0x80 ? String.fromCharCode(b) : HIGH[b - 0x80]
  return s
}
