import { describe, expect, it } from 'vitest'

import { baiduSign, englishFrom, TranslationError } from '../../src/plugins/slugs/translateToEnglish'

describe('the translation API contract', () => {
  it('signs as documented: MD5(appid + q + salt + key)', () => {
    expect(baiduSign('2015063000000001', 'apple', '1435660288', '12345678')).toBe('f89f9594663708c1605f3d736d01d2d4')
  })

  it('reads the translation, joining several paragraphs', () => {
    expect(englishFrom('{"from":"zh","to":"en","trans_result":[{"src":"你好","dst":"Hello"}]}')).toBe('Hello')
    expect(englishFrom('{"trans_result":[{"src":"a","dst":"One"},{"src":"b","dst":"Two"}]}')).toBe('One Two')
  })

  it.each([
    ['{"error_code":"52001","error_msg":"TIMEOUT"}', true, '52001'],
    ['{"error_code":"52002","error_msg":"SYSTEM ERROR"}', true, '52002'],
    ['{"error_code":"54003","error_msg":"Invalid Access Limit"}', true, '54003'],
    ['{"error_code":"54004","error_msg":"Balance is insufficient"}', true, '54004'],
    ['{"error_code":"54005","error_msg":"Long query too frequent"}', true, '54005'],
    ['{"error_code":"52003","error_msg":"UNAUTHORIZED USER"}', false, '52003'],
    ['{"error_code":"54000","error_msg":"PARAM EMPTY"}', false, '54000'],
    ['{"error_code":"54001","error_msg":"Invalid Sign"}', false, '54001'],
    ['{"error_code":58000,"error_msg":"Client IP illegal"}', false, '58000'],
    ['{"error_code":"58001","error_msg":"unsupported"}', false, '58001'],
    ['{"error_code":"90107","error_msg":"auth"}', false, '90107'],
    ['<html>oops</html>', true, undefined],
    ['{"trans_result":[]}', true, undefined],
    ['{"trans_result":[{"dst":42}]}', true, undefined],
    ['null', true, undefined],
  ])('%s → retryable %s', (answer, retryable, code) => {
    try {
      englishFrom(answer)
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(TranslationError)
      expect((error as TranslationError).retryable).toBe(retryable)
      expect((error as TranslationError).code).toBe(code)
    }
  })
})
