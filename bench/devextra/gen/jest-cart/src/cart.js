class OutOfStockError extends Error {
  constructor(sku, wanted, left) {
    super(`${sku}: wanted ${wanted}, only ${left} left`)
    this.name = 'OutOfStockError'
  }
}

class Cart {
  constructor(inventory, prices) {
    this.inventory = inventory
    this.prices = prices
    this.items = new Map()
    this.coupons = []
  }
  add(sku, qty = 1) {
    const left = this.inventory.get(sku) ?? 0
    const have = this.items.get(sku) ?? 0
    if (have + qty > left) throw new OutOfStockError(sku, have + qty, left)
    this.items.set(sku, have + qty)
    return this
  }
  remove(sku) {
    this.items.delete(sku)
    return this
  }
  applyCoupon(code) {
    if (!/^[A-Z]+\d+$/.test(code)) throw new TypeError(`invalid coupon code: ${code}`)
    this.coupons.push(code)
  }
  subtotal() {
    let s = 0
    for (const [sku, qty] of this.items) s += this.prices[sku].cents * qty
    return s
  }
  discount() {
    let pct = 0
    for (const c of this.coupons) pct += Number(c.match(/\d+$/)[0])
    return Math.round(this.subtotal() * pct / 100)
  }
  total() {
    return this.subtotal() - this.discount()
  }
  summary() {
    return { lines: [...this.items].map(([sku, qty]) => ({ sku, qty, cents: this.prices[sku].cents * qty })), subtotal: this.subtotal(), discount: this.discount(), total: this.total() }
  }
}

async function checkout(cart, gateway) {
  const { total } = cart.summary()
  const res = await gateway.charge(total)
  if (!res.ok) throw new Error(`payment declined: ${res.reason}`)
  return res.id
}

module.exports = { Cart, OutOfStockError, checkout }
