// Test helper: a small XML well-formedness check for the hand-written SVGs (balanced tags,
// quoted attributes, escaped text), since node has no XML parser built in.
export function xmlProblems(svg: string): string[] {
  const problems: string[] = []
  const stack: string[] = []
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y
  let i = 0
  while (i < svg.length) {
    const lt = svg.indexOf('<', i)
    const text = svg.slice(i, lt < 0 ? svg.length : lt)
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(text) || text.includes('>')) problems.push(`bad text near ${i}: ${text.slice(0, 40)}`)
    if (lt < 0) break
    tag.lastIndex = lt
    const m = tag.exec(svg)
    if (m === null) {
      problems.push(`bad tag at ${lt}: ${svg.slice(lt, lt + 60)}`)
      break
    }
    const [, close, name, , self] = m
    if (close === '/') {
      if (stack.pop() !== name) problems.push(`unbalanced </${name}> at ${lt}`)
    } else if (self !== '/') stack.push(name!)
    i = tag.lastIndex
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(', ')}`)
  return problems
}
