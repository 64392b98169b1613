import { agentLoopSuite } from './loop.suite.js'

agentLoopSuite('ai 6', 6)
