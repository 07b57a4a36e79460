/**
 * One spam score in [0, 1] for a reply (or a registration): the classifier's
 * log-odds plus each signal's weight, on a prior that leans to genuine (most
 * of what a small blog receives is), through a sigmoid. Summing log-odds keeps
 * one weak signal (a link) from outvoting words the moderators taught as
 * genuine, while several signals together push a reply over the line.
 */
import { logOdds, sigmoid, type Model } from './classifier'
import { signals, type Facts } from './signals'
import { tokenize } from './tokenize'

/** Where a reply starts when the classifier abstains (nothing learnt yet): signals alone must add up. */
export const PRIOR_LOG_ODDS = -2.5
/** Where it starts once the classifier speaks: its words carry the lean to genuine that the prior carried. */
export const TRAINED_PRIOR_LOG_ODDS = -0.5

export type Score = { score: number; reasons: string[]; classifier?: number }

/** Replies are at most 5 000 characters (collections/Replies); a longer text is judged on its start (and refused by validation). */
export const MAX_SCORED_CHARS = 5000

export function scoreText(model: Model, whole: string, facts: Facts = {}): Score {
  const text = whole.length > MAX_SCORED_CHARS ? whole.slice(0, MAX_SCORED_CHARS) : whole
  const found = signals(text, facts)
  const words = logOdds(model, tokenize(text))
  const total = (words === 0 ? PRIOR_LOG_ODDS : TRAINED_PRIOR_LOG_ODDS) + words + found.reduce((sum, s) => sum + s.weight, 0)
  const reasons = found.map((s) => s.reason)
  const classifier = words === 0 ? undefined : sigmoid(words)
  if (classifier !== undefined) reasons.push(`classifier ${classifier.toFixed(2)}`)
  return { score: Math.round(sigmoid(total) * 1000) / 1000, reasons, classifier }
}
