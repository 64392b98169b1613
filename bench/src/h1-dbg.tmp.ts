import { createSpillway, memoryStore } from '@spillway/core'
import { speedInput, SPEED_REGEX } from './suites/speed.js'
const input = speedInput(10)
const reader = createSpillway({ store: memoryStore(), maxChars: 8000 })
const { handle } = await reader.handle({ tool: 'terminal', result: input, sessionId: 'b' })
for (let i = 0; i < 3; i++) { const t0 = performance.now(); const r = await reader.fetch({ id: handle!.id, mode: 'grep', pattern: SPEED_REGEX, ignoreCase: true }, { sessionId: 'b' }); console.log((performance.now() - t0).toFixed(0), r.text.slice(0, 300)) }
