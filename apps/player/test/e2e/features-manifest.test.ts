/**
 * The other reader-facing manifest fields, on a package built here and opened from a file in Chromium against the
 * real server: `allowed_urls` (a listed alias reaches its address through the `net` host namespace, anything else is
 * blocked and reported), `sensors` (a consent prompt; nothing requested without a tick), `preview`, `offline`,
 * `accessibility`, `readers` with `solo_mode: single_role` (the role asked and injected).
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { seriousViolations } from './axe'
import { storedZip } from './core-fixtures'
import { launchBrowser, noBrowser, screenshot } from './harness'
import { playerAndBrowser } from './per-file'

const e2e = playerAndBrowser()

/** The test story: reaches one allowed alias and one that is not, says which reader you are. */
function signalPackage(apiBase: string): Buffer {
  return storedZip({
    'manifest.json': JSON.stringify({
      id: '0b0b7f3e-5d0c-4a51-9a0e-6f1e2d3c4b5a',
      title: 'Signal Test',
      parts: ['story/0001-signal.sty'],
      requires: ['net', 'sensors'],
      allowed_urls: [{ alias: 'health', url: `${apiBase}/api/health`, params: { probe: 'player' } }],
      preview: true,
      offline: true,
      accessibility: ['screen-reader', 'no_timers'],
      readers: [1, 2, 3],
      solo_mode: 'single_role',
      sensors: ['geolocation', 'thermometer'],
    }),
    'extensions/host.xty': [
      '{extern net.send(alias)}',
      '{extern net.allowed(alias)}',
      '{extern sensors.read(name)}',
      '',
    ].join('\n'),
    'story/0001-signal.sty': [
      '{use host}',
      '{set reader_role = 0}',
      '# Signals [#start]',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the story language's interpolation
      'You are reader ${reader_role}.',
      '{call net.send("health")}',
      '{call net.send("https://evil.example/steal")}',
      '* Check the line [#check]',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the story language's interpolation
      '  Health listed: ${net.allowed("health")}; evil listed: ${net.allowed("evil")}; location: ${sensors.read("geolocation")}.',
      '  -> END',
      '',
    ].join('\n'),
  })
}

/** Counts the page's calls to the geolocation API (a sensor must not be touched without consent). */
async function countGeolocation(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { geoCalls: number }
    w.geoCalls = 0
    const geo = navigator.geolocation
    const watch = geo.watchPosition.bind(geo)
    geo.watchPosition = (...args: Parameters<typeof watch>) => {
      w.geoCalls++
      return watch(...args)
    }
  })
}

/** A story whose bar is fixed to the left hand and whose actions ask for every capture tool. */
function kitPackage(): Buffer {
  return storedZip({
    'manifest.json': JSON.stringify({
      id: '5c9e2a71-8b3d-4f60-a1e2-0d9c8b7a6f54',
      title: 'Kit Test',
      parts: ['story/0001-kit.sty'],
      reader: {
        tabBar: {
          enabled: true,
          priorityHand: 'left',
          bag: { enabled: true, variables: ['coins'] },
          actions: { enabled: true, qrScan: true, photo: true, audio: true },
        },
      },
    }),
    'story/0001-kit.sty':
      '{set coins = 2}\n# Kit\nThe kit is on the table.\n+ Wait [#wait]\n  You wait.\n  -> END\n',
  })
}

async function openSignal(page: Page) {
  await page.goto(`${e2e.player.url}#/open`)
  await page.setInputFiles('#open-file', {
    name: 'signal.spkg',
    mimeType: 'application/zip',
    buffer: signalPackage(e2e.player.apiBase),
  })
  await page.waitForSelector('.envelope')
}

describe.skipIf(noBrowser)('player features: reader-facing manifest fields', () => {
  it('notes the fields on the envelope and the play view, asks the role and the sensors, guards the network', async () => {
    // The dark colour scheme: the badges, notes, form and log keep their contrast (axe below).
    const context = await e2e.browser.newContext({ colorScheme: 'dark' })
    const page = await context.newPage()
    await countGeolocation(page)
    const requests: string[] = []
    page.on('request', (r) => requests.push(r.url()))
    await openSignal(page)

    const notes = await page
      .locator('.feature-notes li')
      .evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.note, e.textContent ?? '']))
    expect(notes.map(([k]) => k)).toEqual([
      'preview',
      'cooperative',
      'offline',
      'accessibility',
      'network',
      'sensors',
    ])
    const text = Object.fromEntries(notes)
    expect(text.cooperative).toContain('1–3 readers')
    expect(text.cooperative).toContain('Each reader plays one role')
    expect(text.accessibility).toContain('screen reader, no timers')
    expect(text.network).toContain('(“health”)')
    expect(text.sensors).toContain('your location, thermometer')

    expect(await seriousViolations(page)).toEqual([])
    await page.click('text=Start reading')
    await page.waitForSelector('.start-form')
    expect(await seriousViolations(page)).toEqual([])
    expect((await page.locator('.start-role').allInnerTexts()).map((t) => t.trim())).toEqual([
      'Reader 1',
      'Reader 2',
      'Reader 3',
    ])
    expect(await page.locator('.start-sensors').innerText()).toContain(
      'Not offered by this player: thermometer',
    )
    expect(await page.locator('.start-sensor input').isChecked()).toBe(false)
    await screenshot(page, 'features-start-form')
    await page.check('.start-role input[value="2"]')
    await page.click('.start-form button[type="submit"]')
    await page.waitForSelector('.choices button')
    expect(await page.locator('.transcript').innerText()).toContain('You are reader 2.')

    // The badges in the play view.
    expect(
      await page
        .locator('.play-badges .feature-badge')
        .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.note)),
    ).toEqual(['preview', 'cooperative', 'offline', 'accessibility', 'network', 'sensors'])
    expect(await page.locator('.play-badges [data-note="preview"]').innerText()).toContain('Sample')

    // The listed alias reached its address (with its declared parameter); the address the story named was blocked.
    await page.waitForSelector('.net-log li[data-outcome="done"]', { state: 'attached' })
    await page.click('.net-log summary')
    expect(requests.filter((u) => u.includes('/api/health?'))).toEqual([
      `${e2e.player.apiBase}/api/health?probe=player`,
    ])
    expect(requests.some((u) => u.includes('evil.example'))).toBe(false)
    expect(await page.locator('.net-alert').innerText()).toContain('“https://evil.example/steal”')
    expect(await page.locator('.net-log li[data-outcome="blocked"]').innerText()).toContain(
      'net/unknown-alias',
    )

    expect(await seriousViolations(page)).toEqual([])

    await page.click('.choices button:has-text("Check the line")')
    await page.waitForSelector('.the-end')
    expect(await page.locator('.transcript').innerText()).toContain(
      'Health listed: true; evil listed: false; location: false.',
    )
    // No consent, no sensor: the geolocation API was never called.
    expect(await page.evaluate(() => (window as unknown as { geoCalls: number }).geoCalls)).toBe(0)
    await screenshot(page, 'features-network')
    await context.close()
  })

  it('starts a sensor only once the reader ticks it', async () => {
    const context = await e2e.browser.newContext({
      permissions: ['geolocation'],
      geolocation: { latitude: 59.9139, longitude: 10.7522, accuracy: 12 },
    })
    const page = await context.newPage()
    await countGeolocation(page)
    await openSignal(page)
    await page.click('text=Start reading')
    await page.waitForSelector('.start-form')
    expect(await page.evaluate(() => (window as unknown as { geoCalls: number }).geoCalls)).toBe(0)
    await page.check('.start-sensor input[value="geolocation"]')
    await page.click('.start-form button[type="submit"]')
    await page.waitForSelector('.choices button')
    expect(await page.evaluate(() => (window as unknown as { geoCalls: number }).geoCalls)).toBe(1)
    await page.click('.choices button:has-text("Check the line")')
    await page.waitForSelector('.the-end')
    expect(await page.locator('.transcript').innerText()).toContain(
      'location: {"lat":59.9139,"lon":10.7522,"accuracy":12}.',
    )
    // The player's cancel button leaves the story unstarted.
    await page.click('text=Start again')
    await page.waitForSelector('.start-form')
    await page.click('.start-cancel')
    await page.waitForFunction(
      () => document.querySelector('.play-status')?.textContent === 'The story was not started.',
    )
    await context.close()
  })

  it('captures a photo and a sound with the camera and microphone, left-handed bar', async () => {
    // Chromium's fake camera and microphone, permission granted without a prompt.
    const media = await launchBrowser([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ])
    try {
      const page = await media.newPage()
      await page.goto(`${e2e.player.url}#/open`)
      await page.setInputFiles('#open-file', {
        name: 'kit.spkg',
        mimeType: 'application/zip',
        buffer: kitPackage(),
      })
      await page.waitForSelector('.envelope')
      await page.click('text=Start reading')
      await page.waitForSelector('.tab-button')
      // A fixed hand: closest (actions) at the left edge, no hand switch.
      expect(
        await page
          .locator('.tab-buttons > button')
          .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.section)),
      ).toEqual(['actions', 'bag'])
      expect(await page.locator('.tab-hand').count()).toBe(0)
      await page.click('.tab-button[data-section="actions"]')
      const hasDetector = await page.evaluate(() => 'BarcodeDetector' in window)
      if (!hasDetector)
        expect(await page.locator('[data-capture="qrScan"]').innerText()).toBe(
          'QR scan is unavailable: this browser cannot read QR codes (no BarcodeDetector).',
        )
      else expect(await page.locator('.capture-qr').count()).toBe(1)

      await page.click('.capture-photo') // opens the camera
      await page.click('.capture-photo:has-text("Capture")')
      await page.waitForSelector('.capture-shots img')
      expect(await page.locator('.capture-shots img').getAttribute('src')).toMatch(/^blob:/)
      expect(await page.locator('.capture-shots img').getAttribute('alt')).toBe('Photo 1 you took')

      await page.click('.capture-audio')
      await page.waitForSelector('.capture-audio[aria-pressed="true"]')
      await page.click('.capture-audio')
      await page.waitForSelector('.capture-clips audio')
      expect(await page.locator('.capture-clips audio').getAttribute('src')).toMatch(/^blob:/)
      await screenshot(page, 'features-capture')
    } finally {
      await media.close()
    }
  })
})
