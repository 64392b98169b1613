/** ASCII char-code tests shared by the line scanners of `trim/` (no regex, no allocation). */

/** `0`-`9`. */
export const isDigit = (c: number): boolean => c >= 48 && c <= 57

/** `a`-`z`, `A`-`Z`. */
export const isLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90)

/** {@link isLetter} or {@link isDigit}. */
export const isLetterOrDigit = (c: number): boolean => isDigit(c) || isLetter(c)

/** `A`-`Z`. */
export const isUpper = (c: number): boolean => c >= 65 && c <= 90
