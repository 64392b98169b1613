/** For the trim tests: `n` lines of log noise with no salient word, `INFO step <from + i> done`. */
export const noise = (n: number, from = 1): string[] => Array.from({ length: n }, (_, i) => `INFO step ${from + i} done`)
