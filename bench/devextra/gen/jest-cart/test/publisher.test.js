const logger = require('../src/logger')
const { OrderEvents } = require('../src/events')

const flakyStore = (failures) => {
  const log = []
  let n = 0
  return {
    log,
    append: async (e) => {
      if (n++ < failures) {
        const err = new Error(`connect ECONNREFUSED 127.0.0.1:5432 (attempt ${n})`)
        logger.error('DomainEventPublisher', `Failed to publish ${e.type} ${e.id}: ${err.message}`, err.stack.split('\n').slice(0, 3).join('\n'))
        throw err
      }
      log.push(e)
    },
  }
}

async function publishWithRetry(bus, event, attempts) {
  for (let i = 1; i <= attempts; i++) {
    try { return await bus.publish(event) } catch (e) { logger.warn('DomainEventPublisher', `retrying ${event.id} (${i}/${attempts})`) }
  }
  throw new Error(`gave up publishing ${event.id} after ${attempts} attempts`)
}

describe('DomainEventPublisher', () => {
  for (let i = 0; i < 24; i++) {
    test(`publishes order ${i} after transient errors`, async () => {
      logger.log('DomainEventPublisher', `publishing OrderPlaced o${i}`)
      const store = flakyStore(i % 3)
      const bus = new OrderEvents(store)
      await publishWithRetry(bus, { id: `e${i}`, type: 'OrderPlaced', order: `o${i}` }, 3)
      expect(store.log).toHaveLength(1)
    })
  }
  test('gives up after three attempts', async () => {
    const bus = new OrderEvents(flakyStore(5))
    await expect(publishWithRetry(bus, { id: 'e99', type: 'OrderPlaced', order: 'o99' }, 3)).rejects.toThrow('gave up')
  })
  test('publishes OrderPaid with the amount', async () => {
    const store = flakyStore(0)
    const bus = new OrderEvents(store)
    await publishWithRetry(bus, { id: 'p1', type: 'OrderPaid', order: 'o1', amount: 1999 }, 3)
    expect(store.log[0]).toEqual({ id: 'p1', type: 'OrderPaid', order: 'o1', amount: 1999, currency: 'EUR' })
  })
})
