/** The `code` of the error `@spkg/repo-import/node`'s fetch throws when the address guard refuses a connection. */
export const ADDRESS_REFUSED = 'SPKG_ADDRESS_REFUSED'
