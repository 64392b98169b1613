import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { httpAccess, LOOPBACK_HOSTS, refusal } from './http-access.js'

describe('httpAccess / refusal', () => {
  const local = httpAccess('127.0.0.1')

  it('accepts loopback names on any port, refuses other names, tricks and a missing Host', () => {
    for (const h of ['localhost', 'LOCALHOST:8931', '127.0.0.1:1', '[::1]:8931']) expect(refusal(local, h, undefined)).toBeUndefined()
    for (const h of [undefined, '', 'attacker.example', 'localhost.attacker.example', 'user@localhost', 'localhost/x', '127.0.0.2', '[::2]:80'])
      expect(refusal(local, h, undefined)).toMatch(/is not allowed \(DNS rebinding protection/)
  })

  it('adds the listen address when it names one interface, never for a wildcard', () => {
    expect(httpAccess('192.168.1.5').hosts).toEqual([...LOOPBACK_HOSTS, '192.168.1.5'])
    expect(httpAccess('::1').hosts).toEqual([...LOOPBACK_HOSTS])
    expect(httpAccess('fd00::5').hosts).toContain('[fd00::5]')
    expect(httpAccess('0.0.0.0').hosts).toEqual([...LOOPBACK_HOSTS])
    expect(httpAccess('::').hosts).toEqual([...LOOPBACK_HOSTS])
  })

  it('judges Origin by host name by default, by the exact list when given; "null" and junk are refused', () => {
    expect(refusal(local, 'localhost', 'http://localhost:3000')).toBeUndefined()
    expect(refusal(local, 'localhost', 'https://evil.example')).toMatch(/Origin "https:\/\/evil.example" is not allowed/)
    expect(refusal(local, 'localhost', 'null')).toMatch(/Origin/)
    const listed = httpAccess('127.0.0.1', ['mcp.internal'], ['https://App.Example:443/'])
    expect(refusal(listed, 'mcp.internal', 'https://app.example')).toBeUndefined()
    expect(refusal(listed, 'mcp.internal', 'https://app.example:8443')).toMatch(/Origin/)
  })

  it('property: never throws, whatever the headers', () => {
    fc.assert(fc.property(fc.option(fc.string(), { nil: undefined }), fc.option(fc.string(), { nil: undefined }), (host, origin) => {
      const r = refusal(local, host, origin)
      expect(r === undefined || r.length < 400).toBe(true)
    }))
  })
})
