export type {
  BridgeTool,
  DisclosableTool,
  Disclosure,
  DisclosureMode,
  DisclosureOptions,
  JsonSchema,
  ResolvedCall,
  SessionContext,
} from './types.js'
export { createDisclosure } from './disclosure.js'
export { DEFAULT_DISCLOSURE, schemaTokens, shouldDefer } from './gate.js'
export { DEFAULT_MAX_SCHEMA_ERRORS, MAX_ARGUMENT_CHARS, MAX_VALIDATION_DEPTH, MAX_VALIDATION_STEPS, argumentsTooLarge, validateArgs } from './validate.js'
export { MAX_FORMAT_CHARS } from './schema-prep.js'
export { BRIDGE_NAMES, parseArgs, unwrapCall } from './unwrap.js'
