export type { BlobInfo, BlobMeta, SessionEntry, StorageAdapter } from './types.js'
export { BLOB_ID_PATTERN, MAX_SESSION_ID_CHARS, assertBlobId, assertSessionId, isBlobId, isSessionId } from './ids.js'
export { memoryStore, type MemoryStoreOptions } from './memory.js'
export { unstorageStore, DEFAULT_UNSTORAGE_STORE_OPTIONS, type UnstorageLike, type UnstorageStoreOptions } from './unstorage.js'
