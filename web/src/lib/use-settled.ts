import { useEffect, useState } from 'react';

/**
 * `value` once it has stopped changing for `pauseMs` (what a filter typed in asks for, once the
 * typing pauses), and a way to take a value at once (a Clear button). The value is compared by
 * identity: an object must be a state's, not made anew on each render.
 */
export function useSettled<T>(value: T, pauseMs: number): [T, (now: T) => void] {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), pauseMs);
    return () => clearTimeout(timer);
  }, [value, pauseMs]);
  return [settled, setSettled];
}
