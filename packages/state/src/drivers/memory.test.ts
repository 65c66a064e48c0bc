import { testStateDriver } from '../../test/helpers/test-state-driver'
import { createMemoryDriver } from './memory'

testStateDriver('memory', () => createMemoryDriver())
