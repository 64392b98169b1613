import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../../pipeline/trim-result.js'
import { isEventsHeader, trimEvents } from './events.js'

const card = (n: number): string =>
  [
    'Card #42: Fix login',
    'Status: Doing',
    '',
    'Comments (2):',
    '  - alice: looks good',
    '  - bob: ship it',
    '',
    `Events (${n}):`,
    ...Array.from({ length: n }, (_, i) => `  - 2026-06-01 10:${String(i % 60).padStart(2, '0')} event ${i + 1}: moved`),
    '',
    'Links:',
    '  - PR #7',
  ].join('\n')

describe('trimEvents', () => {
  it('keeps section headers, other sections and the last 10 events, counting the older ones', () => {
    const out = trimEvents(card(80))!
    const lines = out.split('\n')
    expect(lines.slice(0, 8)).toEqual(card(0).split('\n').slice(0, 7).concat('Events (80):'))
    expect(lines[8]).toBe('  [... 70 older events omitted ...]')
    expect(lines.slice(9, 19).map((l) => l.replace(/.*event (\d+).*/, '$1'))).toEqual(Array.from({ length: 10 }, (_, i) => String(71 + i)))
    expect(lines.slice(19)).toEqual(['', 'Links:', '  - PR #7'])
  })

  it('leaves short event lists alone', () => {
    expect(trimEvents(card(10))).toBeUndefined()
    expect(trimEvents(card(30), { keep: 50 })).toBeUndefined()
  })

  it.each(['Events (80):', '## Events', 'events:', 'Activity (3)', '### Event log'])('header: %s', (h) => expect(isEventsHeader(h)).toBe(true))
  it.each(['Events were moved', 'Card events: 3 of them', '- events'])('not a header: %s', (h) => expect(isEventsHeader(h)).toBe(false))

  it('finds a section wherever its header is, whatever the header starts with', () => {
    // trimEvents looks for headers without splitting the text, deciding most lines by their first
    // char: a header behind blanks, heading marks, a BOM or a no-break space must still be found.
    const headers = ['Events (80):', '## Events', '  events:', '\tActivity (3)', '= History', '*** Recent events', '\u00a0Events:', '\ufeffEvent log', 'Events:\r', '\u000b\fEvents']
    const other = fc.constantFrom('', ' ', 'x', 'Status: ok', 'Events were moved', '\u00a0', '#', '=', '\r', 'érr')
    const arb = fc.record({ before: fc.array(other, { maxLength: 8 }), header: fc.constantFrom(...headers), events: fc.integer({ min: 0, max: 14 }), keep: fc.integer({ min: 1, max: 12 }), trailing: fc.boolean() })
    fc.assert(
      fc.property(arb, ({ before, header, events, keep, trailing }) => {
        const text = [...before, header, ...Array.from({ length: events }, (_, i) => `  - event ${i + 1}`)].join('\n') + (trailing ? '\n' : '')
        const out = trimEvents(text, { keep })
        if (events > keep) expect(out, `no section found in ${JSON.stringify(text)}`).toContain(`[... ${events - keep} older events omitted ...]`)
        else expect(out).toBeUndefined()
      }),
      { numRuns: 400 },
    )
  })

  it('runs in trimResult on kanban output over budget', () => {
    const out = trimResult(card(300), { tool: 'kanban_show', maxChars: 2000 })
    expect(out.applied).toEqual(['events'])
    expect(out.text).toContain('[... 290 older events omitted ...]')
    expect(out.text).toContain('event 300: moved')
  })
})
