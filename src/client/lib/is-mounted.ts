import { useCallback, useEffect, useRef } from 'react';

/**
 * Whether the component is still on screen, asked when a request it made comes back: a save
 * answered after its form was closed (Escape, another row clicked) must not take the person
 * back to what they left.
 */
export function useIsMounted(): () => boolean {
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return useCallback(() => mounted.current, []);
}
