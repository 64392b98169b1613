/**
 * @deprecated Import `trimResult` from `@spillway/core` (or `../pipeline/trim-result.js` inside
 * the package). Kept so imports of this path keep working while callers move; the pipeline lives
 * in `pipeline/`, above the filters, and `trim/` holds only the fitter below them.
 */
export { trimResult, type TrimInternals } from '../pipeline/trim-result.js'
