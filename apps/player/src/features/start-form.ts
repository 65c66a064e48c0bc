/**
 * The form shown before a story starts, only when there is something to settle: the session settings built from
 * `session.json` (a fresh start only: a resumed story keeps the values it started with), the role of a single-role
 * cooperative story, and the consent to each sensor the story asks for. Resolves to what the reader chose, or
 * `undefined` when they cancel. Invalid values are marked on their field (`aria-invalid`, the message tied by
 * `aria-describedby`), listed at the top, and the first gets the focus.
 */
import type { JsonValue } from '@spkg/manifest'
import { h, replace } from '../lib/dom'
import { KNOWN_SENSORS, sensorUnavailable } from './sensors'
import { type FieldError, readSession, type SessionField, sessionFields } from './session-model'

/** What the form asks. */
export interface StartFormSpec {
  /** `session.json` values to edit (omit on a resume). */
  session?: Record<string, JsonValue> | undefined
  /** A single-role cooperative story: the number of roles to choose from. */
  roles?: number | undefined
  /** Sensors the story asks for that the player knows. */
  sensors?: readonly string[] | undefined
  /** Sensors the player cannot offer (listed, never requested). */
  unknownSensors?: readonly string[] | undefined
}

/** What the reader chose. */
export interface StartChoice {
  session?: Record<string, JsonValue>
  /** 1-based role of a single-role reader. */
  role?: number
  /** Sensors the reader allowed. */
  sensors: string[]
}

function fieldInput(f: SessionField, id: string, describedBy: string): HTMLElement {
  const common = { id, name: f.key, 'aria-describedby': describedBy, 'data-key': f.key }
  switch (f.kind) {
    case 'boolean':
      return h('input', { ...common, type: 'checkbox', checked: f.initial === true })
    case 'integer':
    case 'number':
      // A text input with a numeric keyboard: a number input would hide what was typed when it is not a number.
      return h('input', {
        ...common,
        type: 'text',
        inputmode: f.kind === 'integer' ? 'numeric' : 'decimal',
        value: f.initialText,
      })
    case 'string':
      return h('input', { ...common, type: 'text', value: f.initialText })
    case 'names':
    case 'numbers':
    case 'json': {
      const rows = Math.min(8, Math.max(3, f.initialText.split('\n').length + 1))
      const ta = h('textarea', { ...common, rows, spellcheck: f.kind === 'names' ? 'true' : 'false' })
      ta.value = f.initialText
      return ta
    }
  }
}

const hint: Record<SessionField['kind'], string> = {
  integer: 'A whole number.',
  number: 'A number.',
  string: 'Text.',
  boolean: '',
  names: 'One name a line.',
  numbers: 'Numbers separated by commas.',
  json: 'JSON, keeping its shape.',
}

/** Shows the form in `container`; resolves when the reader starts (or cancels: `undefined`). */
export function showStartForm(container: HTMLElement, spec: StartFormSpec): Promise<StartChoice | undefined> {
  const values = spec.session ?? {}
  const fields = spec.session ? sessionFields(spec.session) : []
  const uid = `start-${Math.random().toString(36).slice(2, 8)}`
  const errorsBox = h('div', { class: 'start-errors', role: 'alert', hidden: true })
  const parts: HTMLElement[] = []

  if (fields.length) {
    parts.push(
      h(
        'fieldset',
        { class: 'session-settings' },
        h('legend', null, 'Session settings'),
        h('p', { class: 'start-note' }, 'The moderator may adjust these before the session starts.'),
        fields.map((f) => {
          const id = `${uid}-${f.key}`
          const msg = `${id}-msg`
          const input = fieldInput(f, id, `${id}-hint ${msg}`)
          const label = h('label', { for: id }, f.label)
          return h(
            'div',
            { class: `start-field start-${f.kind}` },
            f.kind === 'boolean' ? [input, ' ', label] : [label, input],
            h('span', { class: 'start-hint', id: `${id}-hint` }, hint[f.kind]),
            h('span', { class: 'start-msg', id: msg }),
          )
        }),
      ),
    )
  }
  if ((spec.roles ?? 0) > 1) {
    const roles = spec.roles!
    parts.push(
      h(
        'fieldset',
        { class: 'start-roles' },
        h('legend', null, 'Which reader are you?'),
        h('p', { class: 'start-note' }, 'In this cooperative story each reader plays one role.'),
        Array.from({ length: roles }, (_, i) =>
          h(
            'label',
            { class: 'start-role' },
            h('input', { type: 'radio', name: `${uid}-role`, value: String(i + 1), checked: i === 0 }),
            ` Reader ${i + 1}`,
          ),
        ),
      ),
    )
  }
  if (spec.sensors?.length || spec.unknownSensors?.length) {
    parts.push(
      h(
        'fieldset',
        { class: 'start-sensors' },
        h('legend', null, 'Sensors'),
        h(
          'p',
          { class: 'start-note' },
          'This story asks to use these. Nothing is used unless you tick it; you can start without them.',
        ),
        (spec.sensors ?? []).map((s) => {
          const why = sensorUnavailable(s)
          const info = KNOWN_SENSORS[s]!
          return h(
            'label',
            { class: 'start-sensor' },
            h('input', { type: 'checkbox', name: `${uid}-sensor`, value: s, disabled: !!why }),
            ` Allow ${info.label.toLowerCase()}: ${info.why}`,
            why ? ` (unavailable: ${why})` : '',
          )
        }),
        spec.unknownSensors?.length
          ? h('p', { class: 'start-note' }, `Not offered by this player: ${spec.unknownSensors.join(', ')}.`)
          : undefined,
      ),
    )
  }

  return new Promise((resolve) => {
    const form = h(
      'form',
      { class: 'start-form', 'aria-labelledby': `${uid}-title`, novalidate: true },
      h('h2', { id: `${uid}-title`, tabindex: '-1' }, 'Before the story starts'),
      errorsBox,
      parts,
      h(
        'div',
        { class: 'start-actions' },
        h('button', { type: 'submit', class: 'primary' }, 'Start the story'),
        h(
          'button',
          {
            type: 'button',
            class: 'start-cancel',
            onclick: () => {
              container.replaceChildren()
              resolve(undefined)
            },
          },
          'Cancel',
        ),
      ),
    )
    form.addEventListener('submit', (e) => {
      e.preventDefault()
      const inputs: Record<string, string | boolean> = {}
      for (const f of fields) {
        const el = form.querySelector(`[data-key="${f.key}"]`) as
          | HTMLInputElement
          | HTMLTextAreaElement
          | null
        if (!el) continue
        inputs[f.key] = el instanceof HTMLInputElement && el.type === 'checkbox' ? el.checked : el.value
      }
      const read = readSession(values, fields, inputs)
      showErrors(read.ok ? {} : read.errors)
      if (!read.ok) return
      const role = form.querySelector(`input[name="${uid}-role"]:checked`) as HTMLInputElement | null
      const sensors = [...form.querySelectorAll(`input[name="${uid}-sensor"]:checked`)].map(
        (el) => (el as HTMLInputElement).value,
      )
      const choice: StartChoice = { sensors }
      if (fields.length) choice.session = read.values
      if (role) choice.role = Number(role.value)
      resolve(choice)
    })

    function showErrors(errors: Record<string, FieldError>) {
      let first: HTMLElement | undefined
      for (const f of fields) {
        const el = form.querySelector(`[data-key="${f.key}"]`) as HTMLElement | null
        const msg = form.querySelector(`#${uid}-${f.key}-msg`) as HTMLElement | null
        const err = errors[f.key]
        if (el) {
          if (err) el.setAttribute('aria-invalid', 'true')
          else el.removeAttribute('aria-invalid')
          if (err) first ??= el
        }
        if (msg) {
          msg.textContent = err ? err.message : ''
          if (err) msg.dataset.code = err.code
          else delete msg.dataset.code
        }
      }
      const list = Object.values(errors)
      errorsBox.hidden = list.length === 0
      replace(
        errorsBox,
        list.length
          ? [
              h(
                'p',
                null,
                `Please correct ${list.length === 1 ? 'this setting' : `these ${list.length} settings`}:`,
              ),
              h(
                'ul',
                null,
                list.map((x) => h('li', null, x.message, ' ', h('code', null, `(${x.code})`))),
              ),
            ]
          : [],
      )
      first?.focus()
    }

    replace(container, form)
    ;(form.querySelector('h2') as HTMLElement | null)?.focus()
  })
}
