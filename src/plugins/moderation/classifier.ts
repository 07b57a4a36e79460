/**
 * A multinomial naive-Bayes spam classifier over the words of `tokenize`, with
 * Laplace smoothing. It is plain counts (documents and word occurrences per
 * class), so it learns one decision at a time — add a reply's words to a class,
 * or take them away when a moderator changes their mind — and the counts live
 * in one table (`moderation_tokens`, see store.ts). A library (bayes,
 * wink-naive-bayes-text-classifier) would keep the same counts in a JSON blob
 * that would have to be rewritten whole on every decision.
 */
export type Counts = { spam: number; ham: number }

export type Model = {
  docs: Counts
  /** Word occurrences per class, summed. */
  words: Counts
  tokens: Map<string, Counts>
}

export const emptyModel = (): Model => ({ docs: { spam: 0, ham: 0 }, words: { spam: 0, ham: 0 }, tokens: new Map() })

/** Below this many decisions of either class the classifier abstains (its log-odds is 0). */
export const MIN_DOCS_PER_CLASS = 5

/** Each distinct word counts once per reply: a word repeated 500 times is not 500 times the evidence. */
export const distinct = (tokens: string[]): string[] => [...new Set(tokens)]

export function learn(model: Model, tokens: string[], label: 'spam' | 'ham', sign: 1 | -1 = 1): void {
  const words = distinct(tokens)
  model.docs[label] = Math.max(0, model.docs[label] + sign)
  model.words[label] = Math.max(0, model.words[label] + sign * words.length)
  for (const word of words) {
    const counts = model.tokens.get(word) ?? { spam: 0, ham: 0 }
    counts[label] = Math.max(0, counts[label] + sign)
    model.tokens.set(word, counts)
  }
}

/**
 * The log-odds that the words are spam, clamped to ±12 (one reply's words
 * cannot make anything certain). 0 when the model knows too little.
 */
export function logOdds(model: Model, tokens: string[]): number {
  const { docs, words } = model
  if (docs.spam < MIN_DOCS_PER_CLASS || docs.ham < MIN_DOCS_PER_CLASS) return 0
  const vocabulary = Math.max(1, model.tokens.size)
  // Class priors are left out on purpose: the mix of decisions a site has made is not the mix of what arrives.
  let sum = 0
  for (const word of distinct(tokens)) {
    const counts = model.tokens.get(word)
    if (!counts) continue // an unseen word is evidence of nothing
    const pSpam = (counts.spam + 1) / (words.spam + vocabulary)
    const pHam = (counts.ham + 1) / (words.ham + vocabulary)
    sum += Math.log(pSpam / pHam)
  }
  return Math.max(-12, Math.min(12, sum))
}

export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x))
