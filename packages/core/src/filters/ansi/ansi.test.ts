import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countLines } from '../../trim/text.js'
import { collapseProgress, stripAnsi } from './ansi.js'

describe('stripAnsi', () => {
  it('removes colour, cursor and OSC sequences, keeping the text and lines', () => {
    const text = '\x1b[31mERROR\x1b[0m: boom\n\x1b]0;title\x07ok \x1b[2K\x1b[1Gdone\n'
    expect(stripAnsi(text)).toBe('ERROR: boom\nok done\n')
  })

  it('returns undefined when there is no escape', () => {
    expect(stripAnsi('plain\ntext')).toBeUndefined()
  })

  it('agrees with a regex reference on CSI sequences and never removes a newline', () => {
    const piece = fc.oneof(fc.string({ maxLength: 10 }).map((s) => s.replaceAll('\x1b', '')), fc.constantFrom('\x1b[0m', '\x1b[1;32m', '\x1b[?25l', '\x1b[K', '\n'))
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const text = parts.join('')
        const out = stripAnsi(text) ?? text
        expect(out).toBe(text.replace(/\x1b\[[0-?]*[@-~]/g, ''))
        expect(out.split('\n').length).toBe(text.split('\n').length)
      }),
    )
  })
})

describe('collapseProgress', () => {
  it('keeps the final frame of a progress bar and every other line as is', () => {
    const bar = Array.from({ length: 100 }, (_, i) => `\r[${'#'.repeat(i % 20)}] ${i}%`).join('')
    const out = collapseProgress(`start\n${bar}\ndone\n`)
    expect(out).toBe('start\n[###################] 99%\ndone\n')
  })

  it('leaves CRLF line endings alone', () => {
    expect(collapseProgress('a\r\nb\r\n')).toBeUndefined()
    expect(collapseProgress('a\rb\r\nc\r\n')).toBe('b\r\nc\r\n')
  })

  it('keeps an earlier frame that reports an error', () => {
    expect(collapseProgress('10%\rERROR: disk full\r50%\r100%\n')).toBe('ERROR: disk full\r100%\n')
  })

  it('skips empty trailing frames', () => {
    expect(collapseProgress('loading 1\rloading 2\r\r\nnext')).toBe('loading 2\r\nnext')
  })

  it('never changes the line count', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('\r', '\n', '\r\n')), { maxLength: 60 }), (parts) => {
        const text = parts.join('')
        const out = collapseProgress(text) ?? text
        expect(countLines(out)).toBe(countLines(text))
        expect(out.length).toBeLessThanOrEqual(text.length)
      }),
    )
  })
})
