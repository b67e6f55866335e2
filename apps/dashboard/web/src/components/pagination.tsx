import type { Pagination as PaginationInfo } from '../lib/types';

export function Pagination({ pagination, onPage }: { pagination: PaginationInfo; onPage: (page: number) => void }) {
  const { page, total_pages: pages, total } = pagination;
  return (
    <nav className="pagination" aria-label="Pages">
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {Math.max(1, pages)} · {total} total
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        Next
      </button>
    </nav>
  );
}
