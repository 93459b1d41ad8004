/** Filters of the event log. */
export interface EventFilters {
  /** Only events of this type (`wallet.funded`). */
  type?: string;
  /** Created at or after. */
  from?: Date;
  /** Created at or before. */
  to?: Date;
}
