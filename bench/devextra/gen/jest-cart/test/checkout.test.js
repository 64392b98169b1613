const { Cart, checkout } = require('../src/cart')

const prices = { apple: { cents: 50 }, fig: { cents: 120 } }
const cart = () => new Cart(new Map([['apple', 10], ['fig', 5]]), prices).add('apple', 2)

describe('checkout', () => {
  test('charges the total', async () => {
    const gateway = { charge: jest.fn().mockResolvedValue({ ok: true, id: 'ch_1' }) }
    await expect(checkout(cart(), gateway)).resolves.toBe('ch_1')
    expect(gateway.charge).toHaveBeenCalledWith(100)
  })
  test('reports a declined card', async () => {
    const gateway = { charge: jest.fn().mockResolvedValue({ ok: false, reason: 'insufficient_funds' }) }
    await expect(checkout(cart(), gateway)).rejects.toThrow('payment declined: insufficient_funds')
  })
  test('retries once on a network error', async () => {
    const gateway = { charge: jest.fn().mockRejectedValueOnce(new Error('ECONNRESET')).mockResolvedValue({ ok: true, id: 'ch_2' }) }
    await expect(checkout(cart(), gateway)).resolves.toBe('ch_2')
    expect(gateway.charge).toHaveBeenCalledTimes(2)
  })
  test('charges an item without a price', async () => {
    const c = new Cart(new Map([['kiwi', 1]]), prices).add('kiwi')
    const gateway = { charge: jest.fn().mockResolvedValue({ ok: true, id: 'ch_3' }) }
    await expect(checkout(c, gateway)).resolves.toBe('ch_3')
  })
})
