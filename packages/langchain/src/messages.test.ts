import { describe, expect, it } from 'vitest'
import { AIMessage, HumanMessage, ToolMessage } from 'langchain'
import { calledToolNames, contentText, lastHumanText, sessionIdOf } from './index.js'

describe('message readers', () => {
  it('reads the last human text and the tools called so far, in first-call order', () => {
    const messages = [
      new HumanMessage('first'),
      new AIMessage({ content: '', tool_calls: [{ name: 'b', args: {}, id: '1' }, { name: 'a', args: {}, id: '2' }] }),
      new ToolMessage({ content: 'x', tool_call_id: '1' }),
      new HumanMessage({ content: [{ type: 'text', text: 'second' }] }),
      new AIMessage({ content: '', tool_calls: [{ name: 'b', args: {}, id: '3' }] }),
    ]
    expect(lastHumanText(messages)).toBe('second')
    expect(lastHumanText([])).toBe('')
    expect(calledToolNames(messages)).toEqual(['b', 'a'])
  })

  it('joins text blocks and leaves non-text content alone', () => {
    expect(contentText('plain')).toBe('plain')
    expect(contentText([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }])).toBe('a\nb')
    expect(contentText([{ type: 'text', text: 'a' }, { type: 'image_url', image_url: 'data:...' }])).toBeUndefined()
  })

  it('takes the explicit session, else the thread id, else the default', () => {
    expect(sessionIdOf('fixed', { configurable: { thread_id: 't' } })).toBe('fixed')
    expect(sessionIdOf(undefined, { configurable: { thread_id: 't' } })).toBe('t')
    expect(sessionIdOf(undefined, {})).toBe('default')
    expect(sessionIdOf(undefined, { configurable: { thread_id: 42 } })).toBe('default')
  })
})
