import { describe, expect, it } from 'vitest'
import {
  avatarHref,
  CatalogQuerySchema,
  ErrorBodySchema,
  PageQuerySchema,
  ProgressStateSchema,
  SlugSchema,
  StoryPageSchema,
} from './index'

describe('@spkg/api-contract', () => {
  it('clamps page and limit instead of refusing them', () => {
    expect(PageQuerySchema.parse({ page: '-3', limit: '500' })).toEqual({ page: 1, limit: 100 })
    expect(PageQuerySchema.parse({ page: 'x' })).toEqual({ page: 1, limit: 20 })
    expect(CatalogQuerySchema.parse({ genre: 'mystery' })).toEqual({ page: 1, limit: 20, genre: 'mystery' })
  })

  it('checks slugs', () => {
    expect(SlugSchema.safeParse('the-lighthouse').success).toBe(true)
    expect(SlugSchema.safeParse('The--Lighthouse').success).toBe(false)
  })

  it('refuses an answer outside the contract', () => {
    expect(ErrorBodySchema.safeParse({ statusCode: 404, message: 'x' }).success).toBe(true)
    expect(ErrorBodySchema.safeParse({ status: 404 }).success).toBe(false)
    expect(StoryPageSchema.safeParse({ items: [{}], page: 1, limit: 20, total: 1 }).success).toBe(false)
  })

  it('normalises avatars to https URLs only', () => {
    expect(avatarHref('https://a.example/"><script>')).toBe('https://a.example/%22%3E%3Cscript%3E')
    expect(avatarHref('http://a.example/x.png')).toBeUndefined()
    expect(avatarHref('https://u:p@a.example/')).toBeUndefined()
  })

  it('documents its components by id', () => {
    expect(ProgressStateSchema.meta()?.id).toBe('ProgressState')
    expect(ErrorBodySchema.meta()?.id).toBe('Error')
  })
})
