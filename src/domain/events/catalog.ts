/**
 * What an area's event catalog (`<area>.events.ts`) is made of: its event names as a const object,
 * and payload builders returning `DomainEvent`s of those names, which `EventService.record` writes.
 */
export type EventNameOf<Catalog extends Record<string, string>> = Catalog[keyof Catalog];

/** An event about to be recorded: its documented name and its payload's `data`. */
export interface DomainEvent<Name extends string = string> {
  type: Name;
  data: Record<string, unknown>;
}
