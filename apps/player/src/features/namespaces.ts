/**
 * The host namespaces the player provides to stories (`{call ns.f()}`), for the reader's `hostNamespaces` option: a
 * story whose manifest `requires` one of them opens; any other required namespace is refused at open
 * (`pkg/unsupported-requires`). A leaf, so that the open code can import it without the features' DOM.
 */
import { NET_NAMESPACE } from './network'
import { SENSORS_NAMESPACE } from './sensors'

/** `net` (allowed_urls by alias, network.ts) and `sensors` (readings the reader allowed, sensors.ts). */
export const HOST_NAMESPACES: readonly string[] = [NET_NAMESPACE, SENSORS_NAMESPACE]
