const { Cart, OutOfStockError } = require('../src/cart')

const prices = { apple: { cents: 50 }, pear: { cents: 75 }, fig: { cents: 120 } }
const inventory = () => new Map([['apple', 10], ['pear', 2], ['fig', 5]])

describe('Cart', () => {
  describe('add', () => {
    test('adds an item', () => {
      expect(new Cart(inventory(), prices).add('apple').items.get('apple')).toBe(1)
    })
    test('adds up quantities', () => {
      expect(new Cart(inventory(), prices).add('apple', 2).add('apple', 3).items.get('apple')).toBe(5)
    })
    test('refuses more than the stock', () => {
      expect(() => new Cart(inventory(), prices).add('pear', 3)).toThrow(OutOfStockError)
    })
    test('refuses an unknown item', () => {
      expect(() => new Cart(inventory(), prices).add('kiwi')).toThrow('kiwi: wanted 1, only 0 left')
    })
  })

  describe('totals', () => {
    test.each([
      [['apple', 1], 50],
      [['apple', 4], 200],
      [['pear', 2], 150],
      [['fig', 3], 360],
    ])('subtotal of %j is %i cents', ([sku, qty], cents) => {
      expect(new Cart(inventory(), prices).add(sku, qty).subtotal()).toBe(cents)
    })
    test('summary lists each line', () => {
      const cart = new Cart(inventory(), prices).add('apple', 2).add('fig')
      expect(cart.summary()).toEqual({
        lines: [
          { sku: 'apple', qty: 2, cents: 100 },
          { sku: 'fig', qty: 1, cents: 120 },
        ],
        subtotal: 220,
        discount: 0,
        total: 220,
        currency: 'EUR',
      })
    })
    test('removing an item that is not there is a no-op', () => {
      expect(new Cart(inventory(), prices).remove('apple').subtotal()).toBe(0)
    })
  })

  describe('coupons', () => {
    test('applies a percentage', () => {
      const cart = new Cart(inventory(), prices).add('fig', 5)
      cart.applyCoupon('SAVE10')
      expect(cart.total()).toBe(540)
    })
    test('stacks two coupons multiplicatively', () => {
      const cart = new Cart(inventory(), prices).add('fig', 5)
      cart.applyCoupon('SAVE10')
      cart.applyCoupon('SPRING20')
      expect(cart.total()).toBe(432)
    })
    test('rejects a malformed code', () => {
      expect(() => new Cart(inventory(), prices).applyCoupon('save-10')).toThrow(TypeError)
    })
    test('never discounts below zero', () => {
      const cart = new Cart(inventory(), prices).add('apple')
      cart.applyCoupon('ALL100')
      cart.applyCoupon('MORE50')
      expect(cart.total()).toBeGreaterThanOrEqual(0)
    })
  })
})
