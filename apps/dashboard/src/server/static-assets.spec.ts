import { cacheControlFor, pickEncoding } from './static-assets';

describe('cacheControlFor', () => {
  it('caches content-named build files for a year and revalidates the page', () => {
    expect(cacheControlFor('/assets/index-B2x9.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/index.html')).toBe('no-cache');
    expect(cacheControlFor('/favicon.svg')).toBe('no-cache');
  });
});

describe('pickEncoding', () => {
  const both = { gzip: Buffer.from('g'), brotli: Buffer.from('b') };

  it('prefers brotli, then gzip, as the caller accepts', () => {
    expect(pickEncoding('gzip, deflate, br, zstd', both)).toBe('br');
    expect(pickEncoding('gzip, deflate', both)).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.8', both)).toBe('gzip');
    expect(pickEncoding('*', both)).toBe('br');
  });

  it('sends identity when nothing prepared is accepted or nothing was prepared', () => {
    expect(pickEncoding(undefined, both)).toBeUndefined();
    expect(pickEncoding('identity', both)).toBeUndefined();
    expect(pickEncoding('br, gzip', {})).toBeUndefined();
  });
});
