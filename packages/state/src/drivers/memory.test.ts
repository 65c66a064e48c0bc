import { testStateDriver } from '../contract/test-state-driver'
import { createMemoryDriver } from './memory'

testStateDriver('memory', () => createMemoryDriver())
