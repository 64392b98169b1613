const { EventEmitter } = require('node:events')

class OrderEvents extends EventEmitter {
  constructor(store) {
    super()
    this.store = store
    this.seen = new Set()
  }
  async publish(event) {
    if (!event || typeof event.type !== 'string') throw new TypeError('event.type must be a string')
    if (this.seen.has(event.id)) return false
    this.seen.add(event.id)
    await this.store.append(event)
    this.emit(event.type, event)
    return true
  }
  async replay(from = 0) {
    const events = await this.store.read(from)
    for (const e of events) this.emit(e.type, e)
    return events.length
  }
}

function project(events) {
  const orders = {}
  for (const e of events) {
    if (e.type === 'order.placed') orders[e.order] = { status: 'placed', total: e.total }
    else if (e.type === 'order.paid') orders[e.order].status = 'paid'
    else if (e.type === 'order.shipped') orders[e.order].status = 'shipped'
    else if (e.type === 'order.cancelled') orders[e.order].status = 'cancelled'
  }
  return orders
}

module.exports = { OrderEvents, project }
