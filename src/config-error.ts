/**
 * A configuration value the service cannot start with; the message names the variable. Its own file so
 * that src/config.ts and the parts of the environment it composes (src/workspace-config.ts) both use it
 * without importing each other.
 */
export class ConfigError extends Error {}
