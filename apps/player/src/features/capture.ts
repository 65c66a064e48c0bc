/**
 * The actions section's capture tools: QR scan (BarcodeDetector over the camera), photo (one camera frame) and audio
 * (MediaRecorder). Each is offered only when the section asks for it AND the browser has what it needs; otherwise the
 * panel says plainly why not. Nothing captured leaves the page: photos and recordings are `blob:` URLs kept in memory
 * and revoked when the story closes.
 */
import { h, replace } from '../lib/dom'

/** What the browser lacks for a capture, or undefined when it can. */
export interface CaptureSupport {
  qrScan?: string
  photo?: string
  audio?: string
}

interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<Array<{ rawValue: string; format?: string }>>
}
type BarcodeDetectorCtor = (new (options?: {
  formats?: string[]
}) => BarcodeDetectorLike) & {
  getSupportedFormats?: () => Promise<string[]>
}

const camera = () =>
  typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function'
    ? undefined
    : 'this browser gives pages no camera or microphone (no getUserMedia; pages served over plain http have none)'

/** Why each capture is unavailable here (feature detection only: no permission is asked). */
export function captureSupport(): CaptureSupport {
  const out: CaptureSupport = {}
  const cam = camera()
  const detector = (globalThis as { BarcodeDetector?: BarcodeDetectorCtor }).BarcodeDetector
  if (!detector) out.qrScan = 'this browser cannot read QR codes (no BarcodeDetector)'
  else if (cam) out.qrScan = cam
  if (cam) out.photo = cam
  if (cam) out.audio = cam
  else if (typeof MediaRecorder === 'undefined')
    out.audio = 'this browser cannot record sound (no MediaRecorder)'
  return out
}

function stopStream(stream: MediaStream | undefined) {
  for (const t of stream?.getTracks() ?? []) t.stop()
}

const problem = (e: unknown) =>
  (e as { name?: string }).name === 'NotAllowedError'
    ? 'Permission was refused. Allow the camera or microphone for this page in the browser, then try again.'
    : (e as { name?: string }).name === 'NotFoundError'
      ? 'No camera or microphone was found on this device.'
      : `It did not work: ${e instanceof Error ? e.message : String(e)}`

/** The status line every tool speaks through (a live region: screen readers hear each step). */
const statusLine = () => h('p', { class: 'capture-status', role: 'status', 'aria-live': 'polite' })

/** A tool's button: its class, its label, and what a press does. */
const toolButton = (
  cls: string,
  label: string,
  onclick: () => Promise<void>,
  attrs: Record<string, string> = {},
) => h('button', { type: 'button', class: cls, ...attrs, onclick }, label)

/** The back camera shown in a video that is hidden while it is off (the QR scan and the photo share it). */
function cameraPreview() {
  const video = h('video', { class: 'capture-video', muted: true, playsinline: true, hidden: true })
  let stream: MediaStream | undefined
  return {
    video,
    get on() {
      return stream !== undefined
    },
    async start() {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } })
      video.srcObject = stream
      video.hidden = false
      await video.play()
    },
    off() {
      stopStream(stream)
      stream = undefined
      video.hidden = true
    },
  }
}

/** A capture tool's DOM, with `stop()` for clean-up. */
export interface CaptureTool {
  el: HTMLElement
  stop(): void
}

/** Scans one QR code with the camera; the text read is shown (and not followed: it is only text). */
export function qrScanTool(): CaptureTool {
  const status = statusLine()
  const camera = cameraPreview()
  const video = camera.video
  let timer: ReturnType<typeof setInterval> | undefined
  const stop = () => {
    if (timer) clearInterval(timer)
    timer = undefined
    camera.off()
    button.textContent = 'Scan a QR code'
  }
  const button = toolButton('capture-qr', 'Scan a QR code', async () => {
    if (camera.on) return stop()
    try {
      const Detector = (globalThis as unknown as { BarcodeDetector: BarcodeDetectorCtor }).BarcodeDetector
      const detector = new Detector({ formats: ['qr_code'] })
      await camera.start()
      button.textContent = 'Stop scanning'
      status.textContent = 'Point the camera at the QR code.'
      timer = setInterval(async () => {
        const found = await detector.detect(video).catch(() => [])
        const first = found[0]
        if (first) {
          stop()
          replace(status, 'QR code read: ', h('output', { class: 'capture-result' }, first.rawValue))
        }
      }, 300)
    } catch (e) {
      stop()
      status.textContent = problem(e)
    }
  })
  return { el: h('div', { class: 'capture' }, button, video, status), stop }
}

/** Takes one photo with the camera, shown in the panel (kept in memory only). */
export function photoTool(): CaptureTool {
  const status = statusLine()
  const camera = cameraPreview()
  const video = camera.video
  const shots = h('div', { class: 'capture-shots' })
  const urls: string[] = []
  const close = () => {
    camera.off()
    button.textContent = 'Take a photo'
  }
  const button = toolButton('capture-photo', 'Take a photo', async () => {
    try {
      if (!camera.on) {
        await camera.start()
        button.textContent = 'Capture'
        status.textContent = 'Press Capture to take the photo.'
        return
      }
      const canvas = document.createElement('canvas')
      canvas.width = video.videoWidth || 640
      canvas.height = video.videoHeight || 480
      canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height)
      const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, 'image/jpeg', 0.85))
      close()
      if (!blob) throw new Error('the frame could not be read')
      const url = URL.createObjectURL(blob)
      urls.push(url)
      shots.append(h('img', { src: url, alt: `Photo ${urls.length} you took` }))
      status.textContent = 'Photo taken. It stays on this device.'
    } catch (e) {
      close()
      status.textContent = problem(e)
    }
  })
  return {
    el: h('div', { class: 'capture' }, button, video, shots, status),
    stop() {
      close()
      for (const u of urls.splice(0)) URL.revokeObjectURL(u)
    },
  }
}

/** Records sound; each recording can be played back (kept in memory only). */
export function audioTool(): CaptureTool {
  const status = statusLine()
  const clips = h('div', { class: 'capture-clips' })
  const urls: string[] = []
  let recorder: MediaRecorder | undefined
  let stream: MediaStream | undefined
  const button = toolButton(
    'capture-audio',
    'Record sound',
    async () => {
      if (recorder) {
        recorder.stop()
        return
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({ audio: true })
        const chunks: Blob[] = []
        const r = new MediaRecorder(stream)
        recorder = r
        r.ondataavailable = (e) => chunks.push(e.data)
        r.onstop = () => {
          stopStream(stream)
          stream = undefined
          recorder = undefined
          button.textContent = 'Record sound'
          button.setAttribute('aria-pressed', 'false')
          const url = URL.createObjectURL(new Blob(chunks, { type: r.mimeType || 'audio/webm' }))
          urls.push(url)
          clips.append(h('audio', { controls: true, src: url, 'aria-label': `Recording ${urls.length}` }))
          status.textContent = 'Recording kept on this device.'
        }
        r.start()
        button.textContent = 'Stop recording'
        button.setAttribute('aria-pressed', 'true')
        status.textContent = 'Recording…'
      } catch (e) {
        stopStream(stream)
        stream = undefined
        recorder = undefined
        status.textContent = problem(e)
      }
    },
    { 'aria-pressed': 'false' },
  )
  return {
    el: h('div', { class: 'capture' }, button, clips, status),
    stop() {
      if (recorder && recorder.state !== 'inactive') recorder.stop()
      stopStream(stream)
      for (const u of urls.splice(0)) URL.revokeObjectURL(u)
    },
  }
}
