/** The Cache Storage cache holding the package files kept for offline play. */
export const PACKAGE_CACHE_NAME = 'spkg-packages'
