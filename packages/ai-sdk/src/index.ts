export { spillTools, fetchResultTool, type SpillToolsOptions, type SpilledTools, type FetchResultInput } from './spill-tools.js'
export {
  spillwayPrepareStep,
  lastUserText,
  calledToolNames,
  DEFAULT_PREPARE_STEP_OPTIONS,
  type SpillwayPrepareStepOptions,
  type PrepareStepInput,
  type SpillwayPrepareStep,
  type SpillwayStepResult,
} from './prepare-step.js'
export { toolSearchRanker, type ToolSearchRankerOptions, type SearchableTool } from './tool-search.js'
export { embedderFromModel, type EmbedderFromModelOptions } from './embedder.js'
export { toolDescriptors } from './descriptors.js'
export { spillwayCompaction, type SpillwayCompactionOptions, type CompactionStepInput } from './compaction.js'
export { contextWindowOf, MODEL_CONTEXT_WINDOWS } from './context-window.js'
