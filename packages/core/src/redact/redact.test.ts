import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { redactSecrets, type SecretRule } from './index.js'

// Fake credentials in the issuers' real formats (AWS's documented example key, random bodies).
const FAKES: [string, string][] = [
  ['aws-access-key', 'AKIAIOSFODNN7EXAMPLE'],
  ['github-token', `ghp_${'x7Ab'.repeat(9)}`],
  ['github-token', `github_pat_11ABCDEFG0${'aZ9_'.repeat(18)}`],
  ['gitlab-token', 'glpat-Zx8y7W6v5U4t3S2r1Q0p'],
  ['slack-token', 'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx'],
  ['anthropic-key', `sk-ant-api03-${'Qw3_rT'.repeat(16)}`],
  ['openai-key', `sk-proj-${'Ab1_Cd2-'.repeat(8)}`],
  ['google-api-key', 'AIzaSyD-9tSrke72I6e0DVY5eF1Q5PDbOIGp5jX'],
  ['stripe-key', `sk_live_${'51Hh2Ab9'.repeat(3)}`],
  ['npm-token', `npm_${'a1B2c3D4e5'.repeat(3)}a1B2c3`],
  ['huggingface-token', `hf_${'AbCdEfGhIj'.repeat(3)}AbCdE`],
  ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
]

describe('redactSecrets', () => {
  it.each(FAKES)('replaces a %s and names its kind', (kind, secret) => {
    const out = redactSecrets(`step 3: using ${secret} for upload\nok`)
    expect(out.text).toBe(`step 3: using [REDACTED:${kind}] for upload\nok`)
    expect(out.kinds).toEqual({ [kind]: 1 })
  })

  it('keeps key names and drops only the value of assignments, URL passwords and auth headers', () => {
    const text = [
      'DB_PASSWORD=hunter2hunter2',
      '"client_secret": "0a1b2c3d4e5f6a7b"',
      'mongodb://app:Sup3rS3cret!@mongo:27017/db',
      'Authorization: Basic dXNlcjpwYXNzd29yZA==',
    ].join('\n')
    expect(redactSecrets(text).text).toBe(
      [
        'DB_PASSWORD=[REDACTED:assignment]',
        '"client_secret": "[REDACTED:assignment]"',
        'mongodb://app:[REDACTED:url-password]@mongo:27017/db',
        'Authorization: Basic [REDACTED:auth-header]',
      ].join('\n'),
    )
  })

  it('leaves placeholders and settings alone', () => {
    const text = 'password: ********\nTOKEN=${{ secrets.NPM_TOKEN }}\nmax_tokens=4096\napi_key: <your-key>\ntoken: required\npassword=$DB_PASS'
    expect(redactSecrets(text)).toEqual({ text, count: 0, kinds: {} })
  })

  it('redacts a private key block, with or without its footer, keeping the line count', () => {
    const block = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\nAAAAC3NzaC1lZDI1NTE5AAAAIA==\n-----END OPENSSH PRIVATE KEY-----'
    const out = redactSecrets(`before\n${block}\nafter`)
    expect(out.text).toBe('before\n-----BEGIN OPENSSH PRIVATE KEY-----\n[REDACTED:private-key]\n\n-----END OPENSSH PRIVATE KEY-----\nafter')
    const cut = redactSecrets('-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1234\nabcd==\n\nlater line')
    expect(cut.text).toBe('-----BEGIN RSA PRIVATE KEY-----\n[REDACTED:private-key]\n\n\nlater line')
  })

  it('runs user rules after the defaults', () => {
    const acme: SecretRule = { kind: 'acme-token', pattern: /acme_[0-9a-f]{16}/g }
    expect(redactSecrets('key acme_0123456789abcdef', { extraRules: [acme] }).text).toBe('key [REDACTED:acme-token]')
  })

  const secretIn = fc.tuple(fc.string({ unit: 'grapheme-ascii', maxLength: 200 }), fc.constantFrom(...FAKES), fc.string({ unit: 'grapheme-ascii', maxLength: 200 }))

  it('never leaves a planted secret, keeps every other line, and is idempotent', () => {
    fc.assert(
      fc.property(secretIn, ([before, [, secret], after]) => {
        const text = `${before}\n${secret}\n${after}`
        const out = redactSecrets(text)
        expect(out.text).not.toContain(secret)
        expect(out.text.split('\n').length).toBe(text.split('\n').length)
        expect(redactSecrets(out.text).text).toBe(out.text)
      }),
      { numRuns: 500 },
    )
  })

  it('never throws, is deterministic and keeps the line count on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 500 }), (s) => {
        const a = redactSecrets(s)
        expect(a).toEqual(redactSecrets(s))
        expect(a.text.split('\n').length).toBe(s.split('\n').length)
        if (a.count === 0) expect(a.text).toBe(s)
      }),
      { numRuns: 1000 },
    )
  })
})
