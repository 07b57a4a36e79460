import { describe, expect, it } from 'vitest'

import { ownerOf } from '../../src/server/routes'

describe('one-origin routing', () => {
  it.each([
    ['/', 'astro'],
    ['/articles/1/hello', 'astro'],
    ['/administrator-notes', 'astro'],
    ['/apiary', 'astro'],
    ['/_astro/index.css', 'astro'],
    ['/admin', 'next'],
    ['/admin/collections/articles?x=1', 'next'],
    ['/api/articles?limit=1', 'next'],
    ['/api', 'next'],
    ['/_next/static/chunk.js', 'next'],
    ['/login/github', 'next'],
    ['/login/github/callback?code=x', 'next'],
    ['/login', 'astro'],
    ['/login/', 'astro'],
    ['/healthz', 'health'],
  ])('%s → %s', (url, owner) => {
    expect(ownerOf(url)).toBe(owner)
  })
})
