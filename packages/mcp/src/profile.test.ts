import { describe, expect, it } from 'vitest'
import { profileHint } from './profile.js'

describe('profileHint', () => {
  it('reads the title as a tool name, else a read-only open-world tool is web', () => {
    expect(profileHint({ title: 'Read File' })).toBe('read_file')
    expect(profileHint({ annotations: { title: 'Run command' } })).toBe('terminal')
    expect(profileHint({ annotations: { title: 'Search code' } })).toBe('search')
    expect(profileHint({ annotations: { readOnlyHint: true, openWorldHint: true } })).toBe('web')
    expect(profileHint({ annotations: { readOnlyHint: true, openWorldHint: false } })).toBeUndefined()
    expect(profileHint({ title: 'Memory' })).toBeUndefined() // never hints a tool into "exempt"
    expect(profileHint(undefined)).toBeUndefined()
  })
})
