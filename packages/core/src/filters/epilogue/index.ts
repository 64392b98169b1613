import type { FilterDef } from '../types.js'
import { mergeEpilogue } from './epilogue.js'

export { MAX_EPILOGUE_LINES, mergeEpilogue } from './epilogue.js'

/**
 * A GitHub Actions job's post-steps at the end of a log -> one line that counts them. Runs on
 * over-budget logs when the profile lists `ci-epilogue` (`default` and `terminal` do); maps lines
 * like `dedup-exact`, so the excerpt keeps the original's line numbers.
 */
export const epilogueFilter: FilterDef = {
  name: 'ci-epilogue',
  kinds: ['log', 'text'],
  lossless: false,
  optIn: true,
  preservesLines: false,
  // The line map is a full pass: above 2 MB the merge filters leave the text to the fitter.
  maxInput: 2_000_000,
  run: (text) => mergeEpilogue(text),
}
