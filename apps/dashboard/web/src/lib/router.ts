/**
 * A tiny fragment router: the page lives in `location.hash` (`#/traces/<id>?status=completed`),
 * so the server needs one HTML file and links work with the keyboard and the back button.
 */
export interface Location {
  path: string;
  query: Record<string, string>;
}

export function parseHash(hash: string): Location {
  const raw = hash.replace(/^#/, '');
  const [pathPart, queryPart = ''] = raw.split('?', 2);
  const path = '/' + pathPart.split('/').filter(Boolean).map(safeDecode).map(encodeURIComponent).join('/');
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(queryPart)) query[name] = value;
  return { path, query };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `#/path?query` with undefined and empty values left out. */
export function href(path: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.append(name, String(value));
  const text = params.toString();
  return `#${path}${text ? `?${text}` : ''}`;
}

export interface RouteMatch<N extends string> {
  name: N;
  params: Record<string, string>;
}

/** The first pattern (`/traces/:id`) matching the path, with its decoded parameters. */
export function matchRoute<N extends string>(routes: readonly { name: N; pattern: string }[], path: string): RouteMatch<N> | undefined {
  const segments = path.split('/').filter(Boolean);
  for (const route of routes) {
    const parts = route.pattern.split('/').filter(Boolean);
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = parts.every((part, index) => {
      if (part.startsWith(':')) {
        params[part.slice(1)] = safeDecode(segments[index]);
        return true;
      }
      return part === segments[index];
    });
    if (matches) return { name: route.name, params };
  }
  return undefined;
}
