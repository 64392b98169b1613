const { project } = require('../src/events')

describe('audit trail', () => {
  beforeEach(() => {
    console.error('Warning: audit sink not configured; falling back to stderr (set AUDIT_SINK to silence this error)')
  })
  for (let i = 0; i < 30; i++) {
    test(`order ${i} projects`, () => {
      expect(project([{ type: 'order.placed', order: `o${i}`, total: i }])[`o${i}`].total).toBe(i)
    })
  }
})
