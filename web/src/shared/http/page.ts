/** A page of a paged list, as every list endpoint answers it (API conventions: `infos`). */
export interface Page<T> {
  pageSize: number;
  pageNumber: number;
  total: number;
  infos: T[];
}
