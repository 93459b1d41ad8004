import { JobRequest } from '../shared/jobs';
import { DomainEvent } from './event.entity';

/** EventService's INSERT of an event row (RETURNING it) and the jobs the recorded change schedules. */
export interface EventInsert {
  event: Pick<DomainEvent, 'businessId' | 'livemode' | 'type' | 'data'>;
  sql: string;
  params: unknown[];
  jobs: JobRequest[];
}

/**
 * An event being recorded (`event.recorded`, in the transaction of the change it records, before
 * its row is written). A subscriber that writes rows of its own with each event (the webhooks
 * area: its deliveries) may send the row's INSERT inside its own statement, one round trip for
 * both: it calls `send()` and tells the answer the row. When no subscriber sent it, EventService
 * writes the row alone. `behind`: the recorder does not wait for the row (RequestContext.writeBehind),
 * so the subscriber sends its statement behind too, without waiting.
 */
export class EventRecording {
  /** The row once written: at once for `record`, before the transaction's next statement answers for `recordBehind`. */
  row: DomainEvent | null = null;
  private sent = false;

  constructor(
    readonly insert: EventInsert,
    readonly behind: boolean,
    private readonly onRow: (event: DomainEvent) => void = () => undefined,
  ) {}

  get isSent(): boolean {
    return this.sent;
  }

  /** Takes the writing of the row (one writer only): the answer to tell the written row to. */
  send(): (event: DomainEvent) => void {
    if (this.sent) throw new Error(`The ${this.insert.event.type} event row has a writer already`);
    this.sent = true;
    return (event) => {
      this.row = event;
      this.onRow(event);
    };
  }
}

declare module '../shared/domain-events' {
  interface DomainEvents {
    'event.recorded': EventRecording;
  }
}
