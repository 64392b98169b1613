export { startRedisServer, startRedisCluster, freePort, DEFAULT_REDIS_READY_TIMEOUT_MS, type RedisClusterServers, type RedisServer, type RedisServerOptions } from './redis-server.js'
