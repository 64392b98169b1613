// Writes test/catalog1.test.js .. test/catalog14.test.js: 14 passing suites of 20 tests each (two
// of them print a console.warn), the bulk of the run around the two failing suites.
const { writeFileSync } = require('node:fs')
for (let i = 1; i <= 14; i++) {
  writeFileSync(`${__dirname}/test/catalog${i}.test.js`, `const { Cart } = require('../src/cart')
const prices = Object.fromEntries(Array.from({ length: 20 }, (_, k) => ['sku${i}-' + k, { cents: 10 * (k + 1) }]))
const inv = new Map(Object.keys(prices).map((s) => [s, 100]))
describe('catalog page ${i}', () => {
  test.each(Object.keys(prices))('prices %s', (sku) => {
    const cart = new Cart(inv, prices).add(sku, 2)
    if (sku.endsWith('-7') && ${i} % 5 === 0) console.warn('price cache miss for ' + sku + ', falling back to the catalog API (error budget: 2%)')
    expect(cart.subtotal()).toBe(prices[sku].cents * 2)
  })
})
`)
}
