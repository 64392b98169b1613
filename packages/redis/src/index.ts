export { redisStore, DEFAULT_REDIS_STORE_OPTIONS, type RedisStoreOptions } from './store.js'
export type { RedisClient, RedisCluster } from './client.js'
export { keyLayout, type KeyLayout } from './keys.js'
