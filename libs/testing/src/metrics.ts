/** A service's /metrics text, from its ops port. */
export async function scrapeMetrics(opsPort: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${opsPort}/metrics`);
  if (!response.ok) throw new Error(`/metrics on port ${opsPort} answered ${response.status}`);
  return response.text();
}
