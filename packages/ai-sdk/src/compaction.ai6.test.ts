import { compactionSuite } from './compaction.suite.js'

compactionSuite('ai 6')
