// The in-process caches' one rule for size: a Map keeps its keys in the order they were set, so the
// first key is the one set longest ago, and it goes when the map grows past its bound.

/** Sets `key` in `map` as its newest entry; past `max` entries, the oldest goes. */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}
