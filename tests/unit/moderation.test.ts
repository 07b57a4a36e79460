/**
 * The moderation plugin's pure parts: the tokeniser (English and Chinese), the
 * naive-Bayes classifier, the signals, the owner's rules; and the corpus
 * (tests/fixtures/moderation-corpus.json): trained on one half, judged on the other.
 */
import { readFileSync } from 'node:fs'

import { describe, expect, it } from 'vitest'

import { emptyModel, learn, logOdds } from '../../src/plugins/moderation/classifier'
import { DEFAULT_RULES, decide, findListedWord, wordList } from '../../src/plugins/moderation/rules'
import { scoreText } from '../../src/plugins/moderation/score'
import { signals } from '../../src/plugins/moderation/signals'
import { linkHosts, MAX_TOKENS, tokenize } from '../../src/plugins/moderation/tokenize'

type Sample = { label: 'spam' | 'ham'; lang: string; kind: string; text: string }
const corpus: Sample[] = JSON.parse(readFileSync('tests/fixtures/moderation-corpus.json', 'utf8'))

describe('tokenize', () => {
  it('splits English into lower-case words and Chinese into dictionary words; links become domains', () => {
    expect(tokenize('Hello, World! See https://www.Example.com/a?b=1')).toEqual(['domain:example.com', 'hello', 'world', 'see'])
    const zh = tokenize('联系微信领取红包')
    expect(zh.length).toBeGreaterThan(2)
    expect(zh).toContain('zh:微信')
    expect(tokenize('call 13800138000')).toEqual(['call', 'num:8'])
  })

  it('reads at most MAX_TOKENS words of a huge reply, in linear time', () => {
    const huge = 'cheap pills now '.repeat(20_000)
    const started = performance.now()
    expect(tokenize(huge)).toHaveLength(MAX_TOKENS)
    expect(signals(huge + '\u200b'.repeat(1000)).length).toBeGreaterThan(0)
    expect(performance.now() - started).toBeLessThan(2000) // a generous bound: quadratic work on 320 KB would take minutes
  })
})

describe('classifier', () => {
  it('abstains until it has seen enough of both classes, then leans the way it was taught', () => {
    const model = emptyModel()
    expect(logOdds(model, ['cheap'])).toBe(0)
    for (let i = 0; i < 5; i++) {
      learn(model, ['cheap', 'pills', `x${i}`], 'spam')
      learn(model, ['postgres', 'index', `y${i}`], 'ham')
    }
    expect(logOdds(model, ['cheap', 'pills'])).toBeGreaterThan(1)
    expect(logOdds(model, ['postgres'])).toBeLessThan(-1)
    expect(logOdds(model, ['never-seen'])).toBe(0)
  })

  it('takes a lesson back exactly', () => {
    const model = emptyModel()
    learn(model, ['a', 'b'], 'spam')
    learn(model, ['a', 'b'], 'spam', -1)
    expect(model.docs).toEqual({ spam: 0, ham: 0 })
    expect(model.tokens.get('a')).toEqual({ spam: 0, ham: 0 })
  })
})

describe('signals', () => {
  it('names links, shortened links, look-alike letters, invisible characters, repeats, speed and account age', () => {
    const reasons = (text: string, facts = {}) => signals(text, facts).map((s) => s.reason)
    expect(reasons('see https://bit.ly/x')).toEqual(expect.arrayContaining(['1 link', 'shortened link']))
    expect(reasons('Frее pаypal')).toContain('mixed-script look-alike letters')
    expect(reasons('Привет, друзья')).not.toContain('mixed-script look-alike letters')
    expect(reasons('hi\u200bthere')).toContain('1 invisible character')
    expect(reasons('hello', { sameTextElsewhere: 2, recentReplies: 8, accountAgeMinutes: 3 })).toEqual(
      expect.arrayContaining(['same text from 2 other accounts', '8 replies in 10 minutes', 'new account']),
    )
    expect(linkHosts('www.example.org and http://a.b.example/x')).toEqual(['example.org', 'a.b.example'])
  })

  it('weighs Akismet as a second opinion: spam holds a new account’s reply, ham leans to genuine, unavailable is only named', () => {
    const model = emptyModel()
    const newAccount = { accountAgeMinutes: 5 }
    const alone = scoreText(model, 'Nice post', newAccount)
    const spam = scoreText(model, 'Nice post', { ...newAccount, akismet: 'spam' })
    expect(spam.reasons).toContain('Akismet: spam')
    expect(spam.score).toBeGreaterThanOrEqual(DEFAULT_RULES.holdThreshold)
    expect(spam.score).toBeLessThan(DEFAULT_RULES.spamThreshold)
    expect(scoreText(model, 'Nice post https://a.example', { ...newAccount, akismet: 'spam', recentReplies: 6 }).score).toBeGreaterThanOrEqual(DEFAULT_RULES.spamThreshold)
    const ham = scoreText(model, 'Nice post', { ...newAccount, akismet: 'ham' })
    expect(ham.score).toBeLessThan(alone.score)
    const down = scoreText(model, 'Nice post', { ...newAccount, akismet: 'unavailable' })
    expect(down.score).toBe(alone.score)
    expect(down.reasons).toEqual(['Akismet unavailable', ...alone.reasons])
  })
})

describe('rules', () => {
  const clean = { score: 0.05, reasons: [] }
  const writer = { trusted: false, blocked: false, publishedReplies: 5 }

  it('matches whole words in Latin scripts and substrings in Chinese', () => {
    expect(findListedWord('A classic class', ['ass'])).toBeUndefined()
    expect(findListedWord('Kiss my ASS.', ['ass'])).toBe('ass')
    expect(findListedWord('专业代购各种名牌', ['代购'])).toBe('代购')
    expect(wordList('spam, eggs\n代购，刷单')).toEqual(['spam', 'eggs', '代购', '刷单'])
  })

  it('decides: blocked word refused; trusted published; blocked writer spam; first replies, links, words and score held', () => {
    const rules = { ...DEFAULT_RULES, blockWords: ['casino'], holdWords: ['refund'] }
    expect(decide(rules, 'casino time', writer, clean)).toEqual({ refused: 'casino' })
    expect(decide(rules, 'hello', { ...writer, trusted: true }, { score: 0.99, reasons: [] })).toMatchObject({ state: 'published' })
    expect(decide(rules, 'hello', { ...writer, blocked: true }, clean)).toMatchObject({ state: 'spam' })
    expect(decide(rules, 'hello', { ...writer, publishedReplies: 0 }, clean)).toMatchObject({ state: 'held', reasons: ['first reply'] })
    expect(decide(rules, 'http://a.x http://b.x http://c.x', writer, clean)).toMatchObject({ state: 'held' })
    expect(decide(rules, 'http://a.x http://b.x', writer, clean)).toMatchObject({ state: 'published' })
    expect(decide(rules, 'a refund please', writer, clean)).toMatchObject({ state: 'held' })
    expect(decide(rules, 'hello', writer, { score: 0.8, reasons: [] })).toMatchObject({ state: 'held' })
    expect(decide(rules, 'hello', writer, { score: 0.96, reasons: [] })).toMatchObject({ state: 'spam' })
    expect(decide({ ...rules, holdAll: true }, 'hello', writer, clean)).toMatchObject({ state: 'held' })
  })
})

describe('the corpus', () => {
  it('has at least 400 labelled replies, English and Chinese, genuine and spam, hard cases included', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(400)
    const kinds = new Set(corpus.map((s) => `${s.label}/${s.lang}/${s.kind}`))
    for (const kind of ['ham/en/with-links', 'ham/en/short-thanks', 'spam/en/flattery', 'ham/zh/ordinary', 'spam/zh/zh-spam', 'spam/zh/zh-flattery']) expect(kinds).toContain(kind)
  })

  it('trained on one half: false positives on genuine replies ≤ 2 %, spam recall ≥ 90 % on the other', () => {
    const train = corpus.filter((_, i) => i % 2 === 0)
    const test = corpus.filter((_, i) => i % 2 === 1)
    const model = emptyModel()
    for (const s of train) learn(model, tokenize(s.text), s.label)
    const caught = (s: Sample) => scoreText(model, s.text).score >= DEFAULT_RULES.holdThreshold
    const genuine = test.filter((s) => s.label === 'ham')
    const spam = test.filter((s) => s.label === 'spam')
    const falsePositives = genuine.filter(caught)
    const recall = spam.filter(caught).length / spam.length
    const fpRate = falsePositives.length / genuine.length
    const spamRate = spam.filter((s) => scoreText(model, s.text).score >= DEFAULT_RULES.spamThreshold).length / spam.length
    console.log(`moderation corpus: ${genuine.length} genuine, ${spam.length} spam judged; FP ${(fpRate * 100).toFixed(1)} %, recall (held or spam) ${(recall * 100).toFixed(1)} %, straight to spam ${(spamRate * 100).toFixed(1)} %`)
    expect(fpRate).toBeLessThanOrEqual(0.02)
    expect(recall).toBeGreaterThanOrEqual(0.9)
  })
})
