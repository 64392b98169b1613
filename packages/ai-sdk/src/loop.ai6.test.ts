import { agentLoopSuite } from './loop.suite.js'
import { errorSuite } from './errors.suite.js'
import { stackSuite } from './stack.suite.js'

agentLoopSuite('ai 6', 6)
errorSuite('ai 6')
stackSuite('ai 6')
