import { useEffect, useState } from 'react';
import { parseHash, type Location } from '../lib/router';

export function useLocation(): Location {
  const [location, setLocation] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const update = () => setLocation(parseHash(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return location;
}

export function navigate(hash: string): void {
  if (window.location.hash !== hash) window.location.hash = hash;
}
