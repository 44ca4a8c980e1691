import { useEffect, useState } from 'react';

/** The time now, in ms, read again every `intervalMs`: for what is said relative to it ("in
 *  45 min", "overdue"), which a render must not read from the clock itself. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, intervalMs);
    return () => {
      clearInterval(timer);
    };
  }, [intervalMs]);
  return now;
}
