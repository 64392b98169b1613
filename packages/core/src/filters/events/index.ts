import type { FilterDef } from '../types.js'
import { trimEvents } from './events.js'

export { DEFAULT_EVENTS, isEventsHeader, trimEvents, type EventsOptions } from './events.js'

/** Event sections (`Events (80):`): section headers kept, the last 10 events, the count of older ones. */
export const eventsFilter: FilterDef = {
  name: 'events',
  kinds: ['text', 'log'],
  lossless: false,
  preservesLines: false,
  maxInput: 2_000_000,
  run: (text) => trimEvents(text),
}
