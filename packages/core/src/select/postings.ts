// Postings built in flat typed arrays: a cold index build (a serverless agent's first request)
// runs mostly in V8's interpreter, where every small array and Map entry costs allocation and GC.
// Terms become small integers as they are first seen; each document's weighted term frequencies
// accumulate in one reused array; (term, doc, tf) triples are appended to three growing typed
// arrays and turned into one compressed (CSR) posting table at the end.

/** Inverted postings in compressed form: term `t`'s documents are `docs[offsets[t] .. offsets[t + 1])`, ascending. */
export interface Postings {
  /** Number of documents. */
  readonly docs: number
  /** Term -> term id. */
  readonly termIds: ReadonlyMap<string, number>
  /** `terms + 1` offsets into `docIds` / `tfs`. */
  readonly offsets: Int32Array
  readonly docIds: Int32Array
  /** Weighted term frequency of the term in the document. */
  readonly tfs: Float64Array
  /** Weighted length of each document (sum of its terms' weighted frequencies). */
  readonly lengths: Float64Array
}

/** Accumulates documents term by term, in document order. */
export interface PostingsBuilder {
  /** Id of `term`, assigned on first sight. */
  intern(term: string): number
  /** One occurrence of term `id` in the current document, counting `weight`. */
  add(id: number, weight: number): void
  /** Closes the current document; the next `add` starts a new one. */
  endDoc(): void
  /** The postings of every closed document. */
  finish(): Postings
}

const grow = <A extends Int32Array | Float64Array>(a: A, need: number, make: (n: number) => A): A => {
  if (need <= a.length) return a
  const b = make(Math.max(need, a.length * 2))
  b.set(a)
  return b
}

/** Postings per document the arrays of {@link postingsBuilder} are first sized for (ToolBench: about 17). */
const POSTINGS_PER_DOC_HINT = 24
/** Distinct terms per document the term arrays are first sized for (ToolBench: about 2.2). */
const TERMS_PER_DOC_HINT = 4

/**
 * A new {@link PostingsBuilder}. `expectedDocs` (optional) sizes the arrays up front, so a cold
 * build does not grow them midway (the growth path, first taken after V8 optimised `endDoc`,
 * would deoptimise it).
 */
export function postingsBuilder(expectedDocs = 0): PostingsBuilder {
  const termIds = new Map<string, number>()
  // Weighted tf of each term in the current document, and the terms touched, first sight first.
  const firstTerms = Math.max(1024, expectedDocs * TERMS_PER_DOC_HINT)
  let docTf = new Float64Array(firstTerms)
  let seen = new Uint8Array(firstTerms)
  const touched: number[] = []
  const firstPostings = Math.max(4096, expectedDocs * POSTINGS_PER_DOC_HINT)
  let tTerm = new Int32Array(firstPostings)
  let tDoc = new Int32Array(firstPostings)
  let tTf = new Float64Array(firstPostings)
  let nnz = 0
  let lengths = new Float64Array(Math.max(1024, expectedDocs))
  let docs = 0

  // Growth out of line: the hot path only compares, so optimised code is not thrown away the
  // first time an array fills up.
  const reserve = (postings: number, documents: number): void => {
    tTerm = grow(tTerm, postings, (n) => new Int32Array(n))
    tDoc = grow(tDoc, postings, (n) => new Int32Array(n))
    tTf = grow(tTf, postings, (n) => new Float64Array(n))
    lengths = grow(lengths, documents, (n) => new Float64Array(n))
  }
  const reserveTerms = (terms: number): void => {
    docTf = grow(docTf, terms, (n) => new Float64Array(n))
    const s = new Uint8Array(docTf.length)
    s.set(seen)
    seen = s
  }

  return {
    intern(term) {
      let id = termIds.get(term)
      if (id === undefined) {
        id = termIds.size
        termIds.set(term, id)
        if (id >= docTf.length) reserveTerms(termIds.size)
      }
      return id
    },
    add(id, weight) {
      if (seen[id] === 0) {
        seen[id] = 1
        touched.push(id)
      }
      docTf[id] = docTf[id]! + weight
    },
    endDoc() {
      const doc = docs++
      // The sizes are computed outside the branch: arithmetic that first runs after the function
      // was optimised would throw that code away (V8 deoptimises on missing type feedback).
      const need = nnz + touched.length
      if (need > tTerm.length || docs > lengths.length) reserve(need, docs)
      let length = 0
      for (const id of touched) {
        const tf = docTf[id]!
        docTf[id] = 0
        seen[id] = 0
        length += tf
        tTerm[nnz] = id
        tDoc[nnz] = doc
        tTf[nnz] = tf
        nnz++
      }
      touched.length = 0
      lengths[doc] = length
    },
    finish() {
      const terms = termIds.size
      const offsets = new Int32Array(terms + 1)
      for (let i = 0; i < nnz; i++) {
        const at = tTerm[i]! + 1
        offsets[at] = offsets[at]! + 1
      }
      for (let t = 0; t < terms; t++) offsets[t + 1] = offsets[t + 1]! + offsets[t]!
      const cursor = offsets.slice(0, terms)
      const docIds = new Int32Array(nnz)
      const tfs = new Float64Array(nnz)
      // Triples are in document order, so each term's documents come out ascending.
      for (let i = 0; i < nnz; i++) {
        const t = tTerm[i]!
        const at = cursor[t]!
        cursor[t] = at + 1
        docIds[at] = tDoc[i]!
        tfs[at] = tTf[i]!
      }
      return { docs, termIds, offsets, docIds, tfs, lengths: lengths.slice(0, docs) }
    },
  }
}
