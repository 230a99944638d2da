/** Values the store tests build their bodies from. */

export const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

/** Metadata whose JSON is exactly `bytes` long: {"k":"xxx..."} has 8 bytes of overhead. */
export const metadataOfBytes = (bytes: number) => ({ k: "x".repeat(bytes - 8) });

export const keys = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
export const tagList = (n: number, prefix = "t") =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}`);
