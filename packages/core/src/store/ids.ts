import { SpillwayError } from '../errors.js'

/** Valid blob ids: 12 to 64 lower-case hex characters (a SHA-256 prefix). */
export const BLOB_ID_PATTERN = /^[0-9a-f]{12,64}$/

/** Longest accepted session id, in UTF-16 code units. */
export const MAX_SESSION_ID_CHARS = 128

/** True when `id` is a well-formed blob id. */
export function isBlobId(id: unknown): id is string {
  return typeof id === 'string' && BLOB_ID_PATTERN.test(id)
}

/** Throws `invalid_id` unless `id` is a well-formed blob id (no path can hide in one). */
export function assertBlobId(id: unknown): asserts id is string {
  if (!isBlobId(id)) throw new SpillwayError('invalid_id', `invalid blob id ${JSON.stringify(String(id).slice(0, 80))}: expected 12-64 lower-case hex characters`)
}

/**
 * True when `sessionId` is a non-empty string of at most 128 chars, without control characters,
 * and well-formed UTF-16 (no lone surrogate): the one rule stores and `fetch_result` apply. A lone
 * surrogate has no UTF-8 encoding (it becomes U+FFFD), so `user\uD800` and `user\uDC00` would
 * name the same session folder or key.
 */
export function isSessionId(sessionId: unknown): sessionId is string {
  return (
    typeof sessionId === 'string' &&
    sessionId.length > 0 &&
    sessionId.length <= MAX_SESSION_ID_CHARS &&
    // eslint-disable-next-line no-control-regex
    !/[\u0000-\u001f\u007f]/.test(sessionId) &&
    sessionId.isWellFormed()
  )
}

/** Throws `invalid_id` unless {@link isSessionId} holds. */
export function assertSessionId(sessionId: unknown): asserts sessionId is string {
  if (!isSessionId(sessionId)) {
    throw new SpillwayError('invalid_id', `invalid session id: expected 1-${MAX_SESSION_ID_CHARS} printable characters of well-formed Unicode (no lone surrogate)`)
  }
}
