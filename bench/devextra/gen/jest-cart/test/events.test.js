const { OrderEvents, project } = require('../src/events')

const memoryStore = () => {
  const log = []
  return { log, append: async (e) => { log.push(e) }, read: async (from) => log.slice(from) }
}

describe('OrderEvents', () => {
  test('publishes an event once', async () => {
    const bus = new OrderEvents(memoryStore())
    expect(await bus.publish({ id: 'e1', type: 'order.placed', order: 'o1', total: 100 })).toBe(true)
    expect(await bus.publish({ id: 'e1', type: 'order.placed', order: 'o1', total: 100 })).toBe(false)
  })
  test('rejects an event without a type', async () => {
    const bus = new OrderEvents(memoryStore())
    await expect(bus.publish({ id: 'e2' })).rejects.toThrow(TypeError)
  })
  test('replays from an offset', async () => {
    const store = memoryStore()
    const bus = new OrderEvents(store)
    for (let i = 0; i < 5; i++) await bus.publish({ id: `e${i}`, type: 'order.placed', order: `o${i}`, total: i })
    expect(await bus.replay(2)).toBe(3)
  })
  test('survives a store that fails once', async () => {
    const store = memoryStore()
    let failed = false
    store.append = async (e) => { if (!failed) { failed = true; throw new Error('ECONNRESET: store connection lost') } store.log.push(e) }
    const bus = new OrderEvents(store)
    await bus.publish({ id: 'e9', type: 'order.placed', order: 'o9', total: 9 })
    expect(store.log).toHaveLength(1)
  })
  test('notifies subscribers in order', async () => {
    const bus = new OrderEvents(memoryStore())
    const seen = []
    bus.on('order.paid', (e) => seen.push(e.order))
    await bus.publish({ id: 'a', type: 'order.paid', order: 'o1' })
    await bus.publish({ id: 'b', type: 'order.paid', order: 'o2' })
    expect(seen).toEqual(['o2', 'o1'])
  })
  test('waits for a slow store', async () => {
    const store = memoryStore()
    store.append = () => new Promise(() => {})
    const bus = new OrderEvents(store)
    await bus.publish({ id: 'slow', type: 'order.placed', order: 'o1', total: 1 })
  }, 200)
})

describe('project', () => {
  test('follows an order through its states', () => {
    const orders = project([
      { type: 'order.placed', order: 'o1', total: 30 },
      { type: 'order.paid', order: 'o1' },
      { type: 'order.shipped', order: 'o1' },
    ])
    expect(orders).toEqual({ o1: { status: 'shipped', total: 30 } })
  })
  test('ignores a payment for an unknown order', () => {
    expect(project([{ type: 'order.paid', order: 'ghost' }])).toEqual({})
  })
  test('cancels', () => {
    const orders = project([{ type: 'order.placed', order: 'o1', total: 5 }, { type: 'order.cancelled', order: 'o1' }])
    expect(orders.o1).toMatchObject({ status: 'cancelled', total: 5, refunded: true })
  })
})
