import { describe, expect, it } from 'vitest'
import { callbackError, cleanCallbackUrl, isAuthCallback, loopProtectionUrl } from './callback'

describe('sign-in callback', () => {
  const back = 'http://127.0.0.1:3000/?code=abc&state=xyz&iss=http%3A%2F%2F127.0.0.1%3A4000'

  it('recognises the authorisation response in the query, not a plain page', () => {
    expect(isAuthCallback(back)).toBe(true)
    expect(isAuthCallback('http://127.0.0.1:3000/?error=access_denied&state=xyz')).toBe(true)
    expect(isAuthCallback('http://127.0.0.1:3000/#/story/inn')).toBe(false)
    expect(isAuthCallback('http://127.0.0.1:3000/?code=abc')).toBe(false)
    expect(isAuthCallback('http://127.0.0.1:3000/#/x?code=a&state=b')).toBe(false)
  })

  it('reads the error the provider sent back', () => {
    expect(callbackError(back)).toBeUndefined()
    expect(callbackError('http://h/?error=access_denied&error_description=denied+by+user&state=s')).toBe(
      'access_denied: denied by user',
    )
  })

  it('cleans the query and restores the route the reader was on', () => {
    expect(cleanCallbackUrl(back)).toBe('http://127.0.0.1:3000/')
    expect(cleanCallbackUrl(`${back}&keep=1`, '#/story/inn')).toBe('http://127.0.0.1:3000/?keep=1#/story/inn')
    expect(cleanCallbackUrl(back, '/progress')).toBe('http://127.0.0.1:3000/#/progress')
  })

  it('lets the loop protection see the callback only on a real callback', () => {
    expect(loopProtectionUrl(back)).toBe(back)
    const plain = loopProtectionUrl('http://127.0.0.1:3000/#/')
    expect(new URL(plain).pathname).not.toBe('/')
  })
})
